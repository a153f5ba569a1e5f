package io.ringwatch.engine.reentry;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.errors.RingWatchException;
import io.ringwatch.engine.internal.history.InMemoryJournal;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.RangeResult;
import io.ringwatch.engine.kv.WriteResult;
import io.ringwatch.engine.secondary.IndexFunction;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A controller that writes from its completion ({@code putAsync(...).thenRun(() -> putAsync(...))}
 * runs on the thread that completes writes: the writer in memory, the journal stage in a persistent
 * engine) while the write ring is full. That thread is the one that frees the ring's slots, so a
 * claim that waits for room waits for itself. The write must be admitted or refused at once with a
 * typed error, and the engine must go on: every other write completes and the state is exactly what
 * the completed writes made. The ring is filled deterministically: the writer is held inside an
 * index function on the first write while the test claims every other slot. The 60 s timeout only
 * turns a hang into a failure.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CompletionWritesTest
{
    private static final int RING = 8;

    /** 0: in memory; 1: ASYNC journal; 2: SYNC journal. */
    @ParameterizedTest(name = "mode={0}")
    @ValueSource(ints = {0, 1, 2})
    void aWriteFromACompletionWhileTheRingIsFullIsAdmittedOrRefusedAtOnce(final int mode) throws Exception
    {
        final CountDownLatch writerHeld = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final IndexFunction holdOnGate = (value, offset, length, sink) ->
        {
            if (value.getStringWithoutLengthUtf8(offset, length).equals("gate"))
            {
                writerHeld.countDown();
                awaitUninterruptibly(release);
            }
        };
        final RingWatchConfig.Builder config = RingWatchConfig.builder().writeRingSize(RING);
        if (mode > 0)
        {
            final InMemoryJournal journal = new InMemoryJournal(1 << 12, mode == 2);
            config.persistence(name -> journal);
        }
        try (RingWatch engine = RingWatch.open(config.build()))
        {
            engine.addIndex("hold", holdOnGate);
            final AtomicReference<Object> reentrant = new AtomicReference<>();
            final CountDownLatch reentered = new CountDownLatch(1);
            final CompletableFuture<WriteResult> gate = engine.writeAsync(Op.put("g", "gate"));
            final CompletableFuture<Void> chained = gate.thenRun(() ->
            {
                try
                {
                    reentrant.set(engine.writeAsync(Op.put("re", "entrant")));
                }
                catch (final RuntimeException e)
                {
                    reentrant.set(e);
                }
                finally
                {
                    reentered.countDown();
                }
            });
            assertTrue(writerHeld.await(60, TimeUnit.SECONDS));
            final List<CompletableFuture<WriteResult>> others = new ArrayList<>();
            for (int i = 0; i < RING - 1; i++)
            {
                others.add(engine.writeAsync(Op.put("k" + i, "v" + i)));
            }
            release.countDown();

            assertTrue(reentered.await(60, TimeUnit.SECONDS), "the write from the completion never returned");
            chained.get(60, TimeUnit.SECONDS);
            final TreeMap<String, String> expected = new TreeMap<>();
            expected.put("g", "gate");
            gate.get(60, TimeUnit.SECONDS);
            for (int i = 0; i < RING - 1; i++)
            {
                others.get(i).get(60, TimeUnit.SECONDS);
                expected.put("k" + i, "v" + i);
            }
            final Object outcome = reentrant.get();
            assertNotNull(outcome);
            if (outcome instanceof CompletableFuture<?> future)
            {
                future.get(60, TimeUnit.SECONDS);
                expected.put("re", "entrant");
            }
            else
            {
                assertInstanceOf(RingWatchException.class, outcome, "not a typed refusal: " + outcome);
            }
            assertEquals(expected.size() + 1, engine.put("after", "x").revision());
            expected.put("after", "x");
            assertEquals(expected, contents(engine));
        }
    }

    static TreeMap<String, String> contents(final RingWatch engine)
    {
        return map(engine.range(KeyRange.all(), 0));
    }

    static TreeMap<String, String> map(final RangeResult result)
    {
        final TreeMap<String, String> state = new TreeMap<>();
        for (final KeyValue kv : result.kvs())
        {
            state.put(new String(kv.key(), StandardCharsets.UTF_8), new String(kv.value(), StandardCharsets.UTF_8));
        }
        return state;
    }

    static void awaitUninterruptibly(final CountDownLatch latch)
    {
        boolean interrupted = false;
        while (true)
        {
            try
            {
                latch.await();
                break;
            }
            catch (final InterruptedException e)
            {
                interrupted = true;
            }
        }
        if (interrupted)
        {
            Thread.currentThread().interrupt();
        }
    }
}
