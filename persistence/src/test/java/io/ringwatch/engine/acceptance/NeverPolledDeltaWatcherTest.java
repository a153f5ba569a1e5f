package io.ringwatch.engine.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;
import java.util.TreeMap;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.watch.Delta;
import io.ringwatch.engine.watch.DeltaBatch;
import io.ringwatch.engine.watch.DeltaWatcher;
import io.ringwatch.engine.watch.WatchRequest;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 11, "What must hold", coalesced deltas (Juju's multiwatcher): a delta watcher that is
 * never read while heavy writes (puts, deletes, prefix deletes) wrap a small window many times is
 * never cancelled, and the deltas it hands over afterwards, applied to an empty map, give exactly
 * the engine's state, each key with its mod revision. Seeded ({@code -Dringwatch.seed}).
 */
class NeverPolledDeltaWatcherTest
{
    /**
     * Coalescing watcher: never polled beside heavy writes, never cancelled, ends in the engine's
     * exact state.
     */
    @ParameterizedTest(name = "{0} engine")
    @EnumSource(Scenario.Mode.class)
    void aNeverPolledDeltaWatcherEndsInTheEnginesExactState(final Scenario.Mode mode, @TempDir final Path dir)
        throws InterruptedException
    {
        final long seed = Long.getLong("ringwatch.seed", System.nanoTime());
        System.out.println("NeverPolledDeltaWatcherTest seed " + seed);
        final Random random = new Random(seed);
        final int writes = Scenario.LONG ? 200_000 : (mode == Scenario.Mode.SYNC ? 10_000 : 40_000);
        try (RingWatch engine = RingWatch.open(mode.builder(dir).windowCapacity(1024, 1024).build()))
        {
            engine.put("/d/seed", "before the watch");
            final KeyValue listed = engine.get("/d/seed").orElseThrow();
            final DeltaWatcher watcher = engine.watchDeltas(WatchRequest.of(KeyRange.prefix("/d/")));
            for (int i = 0; i < writes; i++)
            {
                final int choice = random.nextInt(100);
                final String key = "/d/" + random.nextInt(64) + "/" + random.nextInt(32);
                if (choice < 80)
                {
                    engine.put(key, "v" + i);
                }
                else if (choice < 99)
                {
                    engine.delete(KeyRange.key(key));
                }
                else
                {
                    engine.delete(KeyRange.prefix("/d/" + random.nextInt(64) + "/"));
                }
                if (i % 1_000 == 0)
                {
                    engine.put("/other/" + i, "outside the watch");
                }
            }
            assertFalse(watcher.isCancelled(), "the never-polled delta watcher was cancelled: " + watcher.cancellation());

            final long last = engine.currentRevision();
            final TreeMap<String, KeyValue> state = new TreeMap<>();
            // The state before the watch, as a user who listed first would hold it.
            state.put("/d/seed", listed);
            long complete = 0;
            final long deadline = System.nanoTime() + Scenario.PATIENCE.toNanos();
            while (complete < last)
            {
                assertTrue(System.nanoTime() < deadline, "the delta watcher never became complete up to " + last
                    + " (at " + complete + ")");
                final DeltaBatch batch = watcher.next(Duration.ofMillis(100));
                assertNull(batch.cancellation(), "cancelled");
                if (batch.isReset())
                {
                    state.clear();
                }
                for (final Delta delta : batch.deltas())
                {
                    if (delta.isRemoved())
                    {
                        state.remove(delta.keyAsString());
                    }
                    else
                    {
                        state.put(delta.keyAsString(), delta.kv());
                        assertEquals(delta.revision(), delta.kv().modRevision(), delta.toString());
                    }
                }
                complete = Math.max(complete, batch.completeRevision());
            }
            assertFalse(watcher.isCancelled(), "cancelled: " + watcher.cancellation());
            final TreeMap<String, KeyValue> expected = new TreeMap<>();
            for (final KeyValue kv : engine.range(KeyRange.prefix("/d/"), 0).kvs())
            {
                expected.put(kv.keyAsString(), kv);
            }
            assertEquals(expected.keySet(), state.keySet(), "seed " + seed + ": the keys");
            for (final String key : expected.keySet())
            {
                assertEquals(expected.get(key).valueAsString(), state.get(key).valueAsString(), "seed " + seed + ": " + key);
                assertEquals(expected.get(key).modRevision(), state.get(key).modRevision(), "seed " + seed + ": " + key);
            }
            watcher.cancel();
        }
    }
}
