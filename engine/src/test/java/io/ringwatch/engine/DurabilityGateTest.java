package io.ringwatch.engine;

import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.errors.FutureRevisionException;
import io.ringwatch.engine.errors.JournalFailedException;
import io.ringwatch.engine.errors.RingWatchException;
import io.ringwatch.engine.internal.history.InMemoryJournal;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.WriteResult;
import io.ringwatch.engine.watch.WatchRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The journal as its own stage: in SYNC mode no acknowledgement, read or watcher sees a revision
 * before it is durable; a journal that fails (append or flush) fails that write and every later
 * one, the failed writes are visible to no read or watcher (memory is rolled back to what the
 * journal holds), reads go on, close works and a reopen finds every acknowledged write.
 */
class DurabilityGateTest
{
    private static final Duration QUIET = Duration.ofMillis(100);

    private RingWatch engine;
    private InMemoryJournal journal;

    @AfterEach
    void close()
    {
        if (journal != null)
        {
            journal.releaseFlushes();
        }
        if (engine != null)
        {
            engine.close();
        }
    }

    @Test
    void inSyncModeNothingSeesARevisionBeforeItsBatchIsDurable() throws Exception
    {
        journal = new InMemoryJournal(1 << 16, true);
        engine = RingWatch.open(RingWatchConfig.builder().persistence(name -> journal).build());
        engine.put("a", "1");
        final RecordingListener listener = new RecordingListener();
        engine.watch(WatchRequest.of(KeyRange.all()), listener);
        journal.holdFlushes();

        final CompletableFuture<WriteResult> write = engine.writeAsync(Op.put("a", "2"));
        RecordingListener.await(() -> journal.lastRevision() == 2, "the journal stage to append revision 2");
        final CompletableFuture<Optional<KeyValue>> get = CompletableFuture.supplyAsync(() -> engine.get("a"));
        final CompletableFuture<Long> count = CompletableFuture.supplyAsync(() -> engine.count(KeyRange.all()));

        assertFalse(engine.waitForRevision(2, QUIET), "waitForRevision saw revision 2 before its flush");
        assertEquals(1, engine.currentRevision());
        assertFalse(write.isDone(), "acknowledged before the flush");
        assertFalse(get.isDone(), "a get returned revision 2's value before its flush");
        assertTrue(listener.events().isEmpty(), "a watcher saw revision 2 before its flush");
        assertThrows(FutureRevisionException.class, () -> engine.range(KeyRange.all(), 0, 2));

        journal.releaseFlushes();
        assertEquals(2, write.get(30, TimeUnit.SECONDS).revision());
        assertEquals("2", new String(get.get(30, TimeUnit.SECONDS).orElseThrow().value()));
        assertEquals(1, count.get(30, TimeUnit.SECONDS));
        assertEquals(2, listener.awaitEvents(1).get(0).revision());
        assertTrue(journal.durableRevision() >= 2);
    }

    @Test
    void inSyncModeAFailedAppendFailsThatWriteAndEveryLaterOneAndNothingSeesIt()
    {
        journal = new InMemoryJournal(1 << 16, true);
        engine = RingWatch.open(RingWatchConfig.builder().persistence(name -> journal).build());
        engine.put("a", "1");
        final RecordingListener listener = new RecordingListener();
        engine.watch(WatchRequest.of(KeyRange.all()), listener);
        journal.failAppends();

        assertThrows(JournalFailedException.class, () -> engine.put("a", "2"));
        assertThrows(JournalFailedException.class, () -> engine.put("b", "1"));

        assertEquals("1", new String(engine.get("a").orElseThrow().value()));
        assertEquals(1, engine.count(KeyRange.all()));
        assertEquals(1, engine.currentRevision());
        assertEquals(1, engine.range(KeyRange.all(), 0).revision());
        assertFalse(engine.waitForRevision(2, QUIET));
        assertTrue(listener.events().isEmpty(), "a watcher saw a write the journal refused");
        reopenFindsExactly(1, List.of("a=1"));
    }

    @Test
    void aFailedFlushRollsBackEveryWriteTheWriterAppliedAheadOfIt() throws Exception
    {
        journal = new InMemoryJournal(1 << 16, true);
        engine = RingWatch.open(RingWatchConfig.builder().persistence(name -> journal).build());
        engine.put("a", "1");
        engine.put("b", "1");
        final RecordingListener listener = new RecordingListener();
        engine.watch(WatchRequest.of(KeyRange.all()), listener);
        journal.holdFlushes();
        final List<CompletableFuture<WriteResult>> writes = new ArrayList<>();
        for (int i = 0; i < 200; i++)
        {
            writes.add(engine.writeAsync(Op.put("k" + i, "v" + i)));
        }
        writes.add(engine.writeAsync(Op.put("a", "2")));
        writes.add(engine.writeAsync(Op.delete("b")));
        RecordingListener.await(() -> journal.lastRevision() >= 3, "the journal stage to append revision 3");

        journal.failFlushes();
        journal.releaseFlushes();

        for (final CompletableFuture<WriteResult> write : writes)
        {
            final ExecutionException failed = assertThrows(ExecutionException.class, () -> write.get(30, TimeUnit.SECONDS));
            assertInstanceOf(JournalFailedException.class, failed.getCause());
        }
        assertEquals(2, engine.currentRevision());
        assertEquals(List.of("a=1", "b=1"), state(engine));
        assertEquals("1", new String(engine.get("b").orElseThrow().value()));
        assertFalse(engine.get("k0").isPresent());
        assertTrue(listener.events().isEmpty(), "a watcher saw a write whose flush failed");
        assertThrows(JournalFailedException.class, () -> engine.put("c", "1"));
        engine.close();
        engine = null;
        journal.heal();
        engine = RingWatch.open(RingWatchConfig.builder().persistence(name -> journal).build());
        // Revisions appended before the failed flush may survive it (as unforced pages may reach
        // the disk); every acknowledged one must, and what survives is a prefix of the history.
        final long recovered = engine.currentRevision();
        assertTrue(recovered >= 2 && recovered <= 204, "recovered revision " + recovered);
        assertEquals(stateAfter(recovered), state(engine), "the state of revision " + recovered);
    }

    /** The state after {@code revision} of the sequence written above: a, b, k0..k199, a again, b deleted. */
    private static List<String> stateAfter(final long revision)
    {
        final TreeMap<String, String> state = new TreeMap<>();
        state.put("a", "1");
        state.put("b", "1");
        for (int i = 0; i < 200 && i + 3 <= revision; i++)
        {
            state.put("k" + i, "v" + i);
        }
        if (revision >= 203)
        {
            state.put("a", "2");
        }
        if (revision >= 204)
        {
            state.remove("b");
        }
        final List<String> entries = new ArrayList<>();
        state.forEach((key, value) -> entries.add(key + "=" + value));
        return entries;
    }

    @Test
    void inAsyncModeAFailedAppendFailsThatWriteAndLaterOnesAndMemoryReturnsToTheLog()
    {
        journal = new InMemoryJournal(1 << 16, false);
        engine = RingWatch.open(RingWatchConfig.builder().persistence(name -> journal).build());
        engine.put("a", "1");
        journal.failAppends();

        assertThrows(JournalFailedException.class, () -> engine.put("a", "2"));
        assertThrows(JournalFailedException.class, () -> engine.put("b", "1"));

        assertEquals("1", new String(engine.get("a").orElseThrow().value()));
        assertEquals(1, engine.currentRevision());
        assertEquals(List.of("a=1"), state(engine));
        reopenFindsExactly(1, List.of("a=1"));
    }

    @Test
    void aBlockingWriteInsideAWritesCompletionIsRefusedInsteadOfWaitingForItself() throws Exception
    {
        journal = new InMemoryJournal(1 << 16, true);
        engine = RingWatch.open(RingWatchConfig.builder().persistence(name -> journal).build());
        journal.holdFlushes();

        // Held, so the completion cannot have run yet and runs on the journal thread.
        final CompletableFuture<WriteResult> nested = engine.writeAsync(Op.put("a", "1"))
            .thenApply(first -> engine.put("b", "1"));
        journal.releaseFlushes();

        final ExecutionException refused = assertThrows(ExecutionException.class, () -> nested.get(30, TimeUnit.SECONDS));
        assertInstanceOf(RingWatchException.class, refused.getCause());
        assertEquals(2, engine.put("c", "1").revision(), "the engine goes on");
    }

    private void reopenFindsExactly(final long revision, final List<String> state)
    {
        engine.close();
        engine = null;
        journal.heal();
        engine = RingWatch.open(RingWatchConfig.builder().persistence(name -> journal).build());
        assertEquals(revision, engine.currentRevision());
        assertEquals(state, state(engine));
        assertEquals(revision + 1, engine.put("z", "1").revision(), "the reopened engine writes on");
    }

    private static List<String> state(final RingWatch engine)
    {
        final List<String> state = new ArrayList<>();
        for (final KeyValue kv : engine.range(KeyRange.all(), 0).kvs())
        {
            state.add(kv.keyAsString() + "=" + new String(kv.value()));
        }
        return state;
    }
}
