package io.ringwatch.engine.coalesce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.Txn;
import io.ringwatch.engine.watch.Delta;
import io.ringwatch.engine.watch.DeltaBatch;
import io.ringwatch.engine.watch.DeltaWatcher;
import io.ringwatch.engine.watch.WatchRequest;

import org.junit.jupiter.api.Test;

/**
 * {@code DeltaBatch}'s promise under writes that change many keys per revision (transactions,
 * prefix deletes): applying every batch in order gives, for each key, its state at the batch's
 * complete revision C or a newer one (a change after C), never an older one, and a key that the
 * range held at C is never missing. Checked after every batch against a read at C; delivery batches
 * of 16 split each 300-key transaction over many listener calls. Passes on main; fails (2 runs of
 * 2) with a planted bug that counts the newest event's revision as complete.
 */
class DeltaCompletenessProbeTest
{
    private static final String PREFIX = "/d/";

    @Test
    void everyBatchIsCompleteUpToItsRevision() throws Exception
    {
        final long seed = System.nanoTime();
        final AtomicBoolean stop = new AtomicBoolean();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        try (RingWatch engine = RingWatch.open(RingWatchConfig.builder().windowCapacity(1 << 17, 1 << 17)
            .deliveryBatchSize(16).build());
             DeltaWatcher deltas = engine.watchDeltas(WatchRequest.of(KeyRange.prefix(PREFIX))))
        {
            final Thread writer = new Thread(() ->
            {
                final Random random = new Random(seed);
                try
                {
                    for (int i = 0; i < 5_000 && !stop.get(); i++)
                    {
                        final String key = PREFIX + (random.nextInt(4)) + "/" + random.nextInt(50);
                        final int dice = random.nextInt(20);
                        if (dice < 12)
                        {
                            engine.put(key, "v" + i);
                        }
                        else if (dice < 16)
                        {
                            engine.delete(key);
                        }
                        else if (dice < 19)
                        {
                            final List<Op> puts = new ArrayList<>();
                            for (int k = 0; k < 300; k++)
                            {
                                puts.add(Op.put(PREFIX + 9 + "/" + i + "/" + k, "t" + i));
                            }
                            puts.add(Op.delete(KeyRange.prefix(PREFIX + 9 + "/" + (i - 1) + "/")));
                            engine.txn(Txn.of(List.of(), puts, List.of()));
                        }
                        else
                        {
                            engine.delete(KeyRange.prefix(PREFIX + random.nextInt(4) + "/"));
                        }
                    }
                }
                catch (final Throwable t)
                {
                    failure.set(t);
                }
            }, "delta-writer");
            writer.start();
            final Map<String, Delta> state = new HashMap<>();
            int batches = 0;
            while (writer.isAlive() || batches == 0)
            {
                final DeltaBatch batch = deltas.next(Duration.ofMillis(5));
                assertNull(batch.cancellation(), "seed " + seed);
                if (batch.isReset())
                {
                    state.clear();
                }
                for (final Delta delta : batch.deltas())
                {
                    state.put(delta.keyAsString(), delta);
                }
                final long complete = batch.completeRevision();
                if (complete > 0)
                {
                    check(state, engine.range(KeyRange.prefix(PREFIX), 0, complete).kvs(), complete, "seed " + seed + ", batch " + batches);
                }
                batches++;
            }
            writer.join();
            if (failure.get() != null)
            {
                throw new AssertionError("the writer failed", failure.get());
            }
            assertTrue(batches > 1);
        }
    }

    /** For every key: the state at C, or a change after C; a key held at C is never missing. */
    private static void check(final Map<String, Delta> state, final List<KeyValue> atC, final long c, final String where)
    {
        final Map<String, KeyValue> expected = new TreeMap<>();
        atC.forEach(kv -> expected.put(kv.keyAsString(), kv));
        final List<String> wrong = new ArrayList<>();
        for (final Map.Entry<String, KeyValue> held : expected.entrySet())
        {
            final Delta delta = state.get(held.getKey());
            if (delta == null || (delta.revision() <= c && (delta.isRemoved() || delta.kv().modRevision() != held.getValue().modRevision())))
            {
                wrong.add(held.getKey() + " held at " + c + " (mod " + held.getValue().modRevision() + "), the deltas give " + delta);
            }
        }
        for (final Map.Entry<String, Delta> given : state.entrySet())
        {
            final Delta delta = given.getValue();
            if (!delta.isRemoved() && !expected.containsKey(given.getKey()) && delta.revision() <= c)
            {
                wrong.add(given.getKey() + " absent at " + c + ", the deltas give " + delta);
            }
        }
        assertEquals(List.of(), wrong, where);
    }
}
