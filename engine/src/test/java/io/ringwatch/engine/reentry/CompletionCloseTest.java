package io.ringwatch.engine.reentry;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.errors.EngineClosedException;
import io.ringwatch.engine.internal.history.InMemoryJournal;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.WriteResult;
import io.ringwatch.engine.secondary.IndexFunction;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code close()} called inside a write's completion ({@code writeAsync(...).thenRun(engine::close)},
 * which runs on the thread that completes writes: the writer in memory, the journal stage in a
 * persistent engine). That thread is one the close must stop, and every write admitted before the
 * close (its slot claimed) must still complete; in a persistent engine a reopen finds every one.
 * The writes are admitted deterministically: the writer is held inside an index function on the
 * closing write while the test claims the others, so they are in the ring behind it when the close
 * runs. Found failing on main 693a712: in memory the close waited 30 s for the writer it ran on, then
 * halted it with the admitted writes never applied (their futures never completed); with a journal
 * the close joined the journal thread it ran on, for ever. The 60 s timeout only turns a hang into a
 * failure; no assertion depends on timing.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CompletionCloseTest
{
    private static final int ADMITTED = 6;

    /** 0: in memory; 1: ASYNC journal; 2: SYNC journal. */
    @ParameterizedTest(name = "mode={0}")
    @ValueSource(ints = {0, 1, 2})
    void closeInsideACompletionCompletesEveryAdmittedWriteAndReturns(final int mode) throws Exception
    {
        final CountDownLatch writerHeld = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final IndexFunction holdOnGate = (value, offset, length, sink) ->
        {
            if (value.getStringWithoutLengthUtf8(offset, length).equals("gate"))
            {
                writerHeld.countDown();
                CompletionWritesTest.awaitUninterruptibly(release);
            }
        };
        final InMemoryJournal journal = mode == 0 ? null : new InMemoryJournal(1 << 12, mode == 2);
        final RingWatch engine = open(journal);
        engine.addIndex("hold", holdOnGate);
        final TreeMap<String, String> expected = new TreeMap<>();
        expected.put("before", "1");
        engine.put("before", "1");

        final AtomicReference<Throwable> closeFailure = new AtomicReference<>();
        final CountDownLatch closeReturned = new CountDownLatch(1);
        final CompletableFuture<WriteResult> gate = engine.writeAsync(Op.put("g", "gate"));
        gate.thenRun(() ->
        {
            try
            {
                engine.close();
            }
            catch (final Throwable t)
            {
                closeFailure.set(t);
            }
            finally
            {
                closeReturned.countDown();
            }
        });
        assertTrue(writerHeld.await(60, TimeUnit.SECONDS));
        final List<CompletableFuture<WriteResult>> admitted = new ArrayList<>();
        for (int i = 0; i < ADMITTED; i++)
        {
            admitted.add(engine.writeAsync(Op.put("k" + i, "v" + i)));
        }
        release.countDown();

        assertTrue(closeReturned.await(60, TimeUnit.SECONDS), "close inside the completion never returned");
        assertNull(closeFailure.get());
        assertEquals(2, gate.get(60, TimeUnit.SECONDS).revision());
        expected.put("g", "gate");
        for (int i = 0; i < ADMITTED; i++)
        {
            assertEquals(3 + i, admitted.get(i).get(60, TimeUnit.SECONDS).revision(), "admitted write " + i);
            expected.put("k" + i, "v" + i);
        }
        assertThrows(EngineClosedException.class, () -> engine.put("late", "x"));
        // A second close waits for the first to finish, so the journal is closed when it returns.
        engine.close();
        if (journal != null)
        {
            try (RingWatch reopened = open(journal))
            {
                assertEquals(2 + ADMITTED, reopened.currentRevision());
                assertEquals(expected, CompletionWritesTest.contents(reopened));
            }
        }
    }

    private static RingWatch open(final InMemoryJournal journal)
    {
        final RingWatchConfig.Builder config = RingWatchConfig.builder();
        if (journal != null)
        {
            config.persistence(name -> journal);
        }
        return RingWatch.open(config.build());
    }
}
