package io.ringwatch.engine;

import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.direct.DirectWriter;
import io.ringwatch.engine.direct.WriteCallback;
import io.ringwatch.engine.errors.IndexFunctionException;
import io.ringwatch.engine.errors.JournalFailedException;
import io.ringwatch.engine.errors.RingWatchException;
import io.ringwatch.engine.errors.WriterFailedException;
import io.ringwatch.engine.internal.history.InMemoryJournal;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.Txn;
import io.ringwatch.engine.secondary.IndexFunction;
import io.ringwatch.engine.watch.Event;
import io.ringwatch.engine.watch.WatchRequest;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * An {@link Error} thrown on the write path (a failed assertion or a class that would not load in
 * a user's index function or write callback, the {@code InternalError} of a mapped page the disk
 * cannot back, a bug in the writer's own work) never leaves a caller waiting and never stops the
 * thread that completes writes: user code fails only its own write, with a typed error and nothing
 * changed; a journal Error fails the engine's writes with {@link JournalFailedException}, as a full
 * disk does; an Error in the writer's own work fails that write and every later one with
 * {@link WriterFailedException}. The timeouts only
 * turn a hang (the bug this guards against) into a failure; no assertion depends on timing.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WriterErrorTest
{
    /** Indexes a value by itself, and throws an AssertionError for the value "boom". */
    private static final IndexFunction THROWS_ERROR_ON_BOOM = (value, offset, length, sink) ->
    {
        if (value.getStringWithoutLengthUtf8(offset, length).equals("boom"))
        {
            throw new AssertionError("the function's own assertion");
        }
        sink.accept(value, offset, length);
    };

    @Test
    void inMemoryAnErrorInAnIndexFunctionFailsOnlyItsWrite() throws Exception
    {
        try (RingWatch engine = RingWatch.open())
        {
            anErrorInAnIndexFunctionFailsOnlyItsWrite(engine);
        }
    }

    @ParameterizedTest(name = "sync={0}")
    @ValueSource(booleans = {false, true})
    void withAJournalAnErrorInAnIndexFunctionFailsOnlyItsWriteAndIsNotJournalled(final boolean sync) throws Exception
    {
        final InMemoryJournal journal = new InMemoryJournal(1 << 10, sync);
        try (RingWatch engine = open(journal))
        {
            anErrorInAnIndexFunctionFailsOnlyItsWrite(engine);
            assertEquals(3, journal.lastRevision());
        }
    }

    @ParameterizedTest(name = "sync={0}")
    @ValueSource(booleans = {false, true})
    void anErrorFromTheJournalFailsWritesWithATypedErrorAndLeavesWhatTheLogHolds(final boolean sync) throws Exception
    {
        final InMemoryJournal journal = new InMemoryJournal(1 << 10, sync);
        try (RingWatch engine = open(journal))
        {
            assertEquals(1, engine.put("a", "1").revision());
            journal.failAppendsWithError();

            final JournalFailedException failed = assertThrows(JournalFailedException.class, () -> engine.put("b", "2"));
            assertInstanceOf(InternalError.class, failed.getCause());
            final CompletableFuture<?> later = engine.writeAsync(Op.put(bytes("c"), bytes("3")));
            final ExecutionException refused = assertThrows(ExecutionException.class, later::get);
            assertInstanceOf(JournalFailedException.class, refused.getCause());

            assertEquals(1, journal.lastRevision());
            assertEquals(1, engine.currentRevision(), "reads serve what the log holds");
            assertEquals(List.of("a"), keys(engine));
        }
    }

    @ParameterizedTest(name = "sync={0}")
    @ValueSource(booleans = {false, true})
    void anErrorInTheWritersOwnWorkFailsThatWriteAndEveryLaterOneWithoutAHang(final boolean sync) throws Exception
    {
        final InMemoryJournal journal = new InMemoryJournal(1 << 10, sync);
        journal.capRevisionsAt(1 << 20);
        try (RingWatch engine = open(journal))
        {
            assertEquals(1, engine.put("a", "1").revision());
            journal.failSizingWithError();

            final Txn measured = Txn.of(List.of(), List.of(Op.put(bytes("x"), bytes("1")), Op.put(bytes("y"), bytes("2"))), List.of());
            final WriterFailedException failed = assertThrows(WriterFailedException.class, () -> engine.txn(measured));
            assertInstanceOf(InternalError.class, failed.getCause());
            assertThrows(WriterFailedException.class, () -> engine.put("b", "2"), "every later write is refused");
            final ExecutionException refused = assertThrows(ExecutionException.class,
                () -> engine.writeAsync(Op.put(bytes("c"), bytes("3"))).get());
            assertInstanceOf(WriterFailedException.class, refused.getCause());

            assertEquals(1, engine.currentRevision());
            assertEquals(List.of("a"), keys(engine), "reads go on");
        }
    }

    @ParameterizedTest(name = "sync={0}")
    @ValueSource(booleans = {false, true})
    void anErrorFromTheJournalRecordingALeaseFailsWritesWithATypedError(final boolean sync)
    {
        final InMemoryJournal journal = new InMemoryJournal(1 << 10, sync);
        try (RingWatch engine = open(journal))
        {
            assertEquals(1, engine.put("a", "1").revision());
            journal.failAppendsWithError();

            final JournalFailedException failed = assertThrows(JournalFailedException.class, () -> engine.leases().grant(60));
            assertInstanceOf(InternalError.class, failed.getCause());
            assertThrows(JournalFailedException.class, () -> engine.put("b", "2"), "later writes are refused, not left waiting");
            assertEquals(1, engine.currentRevision());
        }
    }

    @Test
    void anErrorInAWriteCallbackStopsNeitherTheWriterNorTheJournalStage() throws Exception
    {
        final InMemoryJournal journal = new InMemoryJournal(1 << 10, false);
        try (RingWatch engine = open(journal))
        {
            final DirectWriter writer = engine.newDirectWriter();
            final LinkedBlockingQueue<Long> heard = new LinkedBlockingQueue<>();
            final WriteCallback throwsAfterHearing = new WriteCallback()
            {
                @Override
                public void onWritten(final long revision, final boolean succeeded, final long deleted)
                {
                    heard.add(revision);
                    throw new AssertionError("the callback's own assertion");
                }

                @Override
                public void onFailed(final RingWatchException error)
                {
                    heard.add(-1L);
                }
            };
            final UnsafeBuffer key = new UnsafeBuffer(bytes("k"));
            final UnsafeBuffer value = new UnsafeBuffer(bytes("v"));
            writer.putAsync(key, 0, key.capacity(), value, 0, value.capacity(), throwsAfterHearing);
            writer.putAsync(key, 0, key.capacity(), value, 0, value.capacity(), throwsAfterHearing);

            assertEquals(1L, heard.poll(30, TimeUnit.SECONDS));
            assertEquals(2L, heard.poll(30, TimeUnit.SECONDS));
            assertEquals(3, engine.put("a", "1").revision(), "writes still complete");
        }
    }

    private static RingWatch open(final InMemoryJournal journal)
    {
        return RingWatch.open(RingWatchConfig.builder().persistence(name -> journal).build());
    }

    private static void anErrorInAnIndexFunctionFailsOnlyItsWrite(final RingWatch engine) throws Exception
    {
        engine.addIndex("self", THROWS_ERROR_ON_BOOM);
        final RecordingListener listener = new RecordingListener();
        engine.watch(WatchRequest.of(KeyRange.all()), listener);
        assertEquals(1, engine.put("a", "1").revision());

        final IndexFunctionException blocking = assertThrows(IndexFunctionException.class, () -> engine.put("b", "boom"));
        assertInstanceOf(AssertionError.class, blocking.getCause());
        final CompletableFuture<?> async = engine.writeAsync(Op.put(bytes("b"), bytes("boom")));
        final ExecutionException failed = assertThrows(ExecutionException.class, async::get);
        assertInstanceOf(IndexFunctionException.class, failed.getCause());
        final Txn txn = Txn.of(List.of(), List.of(Op.put(bytes("x"), bytes("1")), Op.put(bytes("b"), bytes("boom"))), List.of());
        assertNotNull(assertThrows(IndexFunctionException.class, () -> engine.txn(txn)));

        assertEquals(1, engine.currentRevision(), "nothing of the failed writes is applied");
        assertFalse(engine.get("b").isPresent());
        assertFalse(engine.get("x").isPresent());
        assertEquals(2, engine.put("a", "2").revision(), "the writer goes on");
        assertEquals(3, engine.put("c", "3").revision());
        final List<Event> events = listener.awaitEvents(3);
        assertEquals(List.of(1L, 2L, 3L), events.stream().map(Event::revision).toList());
        assertEquals(List.of("a", "c"), keys(engine));
    }

    private static List<String> keys(final RingWatch engine)
    {
        return engine.range(KeyRange.all(), 0).kvs().stream().map(kv -> kv.keyAsString()).toList();
    }

    private static byte[] bytes(final String text)
    {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
