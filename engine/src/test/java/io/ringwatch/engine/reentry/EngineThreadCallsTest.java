package io.ringwatch.engine.reentry;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.errors.RingWatchException;
import io.ringwatch.engine.internal.history.InMemoryJournal;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.RangeResult;
import io.ringwatch.engine.kv.Txn;
import io.ringwatch.engine.secondary.IndexFunction;
import io.ringwatch.engine.watch.ListWatch;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.engine.watch.Watcher;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every public call made from the engine's own threads where user code runs: inside a write's
 * completion (the writer in memory, the journal stage with a journal) and inside an index function
 * (the writer, in the middle of a revision). etcd and client-go users do this (a controller reads
 * and writes from its handler). Each call must either work, answering exactly what a caller on its
 * own thread would (the reference is the state the test's writes made), or fail at once with a
 * typed {@link RingWatchException}; never hang, and the engine goes on afterwards. The 60 s timeout
 * only turns a hang into a failure.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class EngineThreadCallsTest
{
    /** 0: in memory; 1: ASYNC journal; 2: SYNC journal. */
    @ParameterizedTest(name = "mode={0}")
    @ValueSource(ints = {0, 1, 2})
    void callsInsideACompletionWorkOrFailTyped(final int mode) throws Exception
    {
        try (RingWatch engine = open(mode))
        {
            final TreeMap<String, String> before = prepare(engine);
            // The writer waits in an index function until the completion is chained, so it runs where writes complete.
            final CountDownLatch chained = new CountDownLatch(1);
            engine.addIndex("hold", (value, offset, length, sink) ->
            {
                if (value.getStringWithoutLengthUtf8(offset, length).equals("held"))
                {
                    CompletionWritesTest.awaitUninterruptibly(chained);
                }
            });
            final CompletableFuture<Map<String, Object>> outcomes = engine.writeAsync(Op.put("c", "held"))
                .thenApply(result -> callEverything(engine));
            chained.countDown();
            final Map<String, Object> calls = outcomes.get(60, TimeUnit.SECONDS);
            assertEquals(mode == 0 ? "ringwatch-writer" : "ringwatch-journal", calls.get("thread"));
            final TreeMap<String, String> after = new TreeMap<>(before);
            after.put("c", "held");
            check(calls, before, after);
            engineGoesOn(engine, after);
        }
    }

    @ParameterizedTest(name = "mode={0}")
    @ValueSource(ints = {0, 1, 2})
    void callsInsideAnIndexFunctionWorkOrFailTyped(final int mode) throws Exception
    {
        try (RingWatch engine = open(mode))
        {
            final TreeMap<String, String> before = prepare(engine);
            final CompletableFuture<Map<String, Object>> outcomes = new CompletableFuture<>();
            final IndexFunction probing = (value, offset, length, sink) ->
            {
                if (value.getStringWithoutLengthUtf8(offset, length).equals("probe") && !outcomes.isDone())
                {
                    outcomes.complete(callEverything(engine));
                }
                sink.accept(value, offset, length);
            };
            engine.addIndex("probing", probing);
            final CompletableFuture<?> write = engine.writeAsync(Op.put("c", "probe"));
            final Map<String, Object> calls = outcomes.get(60, TimeUnit.SECONDS);
            write.get(60, TimeUnit.SECONDS);
            assertEquals("ringwatch-writer", calls.get("thread"));
            // In the middle of the revision: the reads may see the state before it, never a part of it.
            check(calls, before, null);
            final TreeMap<String, String> after = new TreeMap<>(before);
            after.put("c", "probe");
            engineGoesOn(engine, after);
        }
    }

    private static RingWatch open(final int mode)
    {
        final RingWatchConfig.Builder config = RingWatchConfig.builder();
        if (mode > 0)
        {
            final InMemoryJournal journal = new InMemoryJournal(1 << 12, mode == 2);
            config.persistence(name -> journal);
        }
        return RingWatch.open(config.build());
    }

    /** Revisions 1 and 2: a=1, b=2; an index "self" of each value. */
    private static TreeMap<String, String> prepare(final RingWatch engine)
    {
        engine.addIndex("self", (value, offset, length, sink) -> sink.accept(value, offset, length));
        engine.put("a", "1");
        engine.put("b", "2");
        final TreeMap<String, String> state = new TreeMap<>();
        state.put("a", "1");
        state.put("b", "2");
        return state;
    }

    private static Map<String, Object> callEverything(final RingWatch engine)
    {
        final Map<String, Object> outcomes = new LinkedHashMap<>();
        outcomes.put("thread", Thread.currentThread().getName());
        call(outcomes, "range", () -> engine.range(KeyRange.all(), 0));
        call(outcomes, "count", () -> engine.count(KeyRange.all()));
        call(outcomes, "byIndex", () -> engine.byIndex("self", "2"));
        call(outcomes, "rangeAt1", () -> engine.range(KeyRange.all(), 0, 1));
        call(outcomes, "get", () -> engine.get("b").orElseThrow().valueAsString());
        call(outcomes, "listAndWatch", () ->
        {
            final ListWatch<PullWatcher> listWatch = engine.listAndWatchPull(WatchRequest.of(KeyRange.all()));
            listWatch.watcher().cancel();
            return listWatch.snapshot();
        });
        call(outcomes, "watchAndCancel", () ->
        {
            final Watcher watcher = engine.watch(WatchRequest.of(KeyRange.prefix("zz")), batch -> { });
            watcher.requestProgress();
            watcher.cancel();
            return watcher.isCancelled();
        });
        call(outcomes, "putAsync", () -> engine.writeAsync(Op.put("async", "x")));
        call(outcomes, "txnAsync", () -> engine.txnAsync(Txn.of(List.of(), List.of(Op.put("txn", "y")), List.of())));
        call(outcomes, "put", () -> engine.put("sync", "z"));
        call(outcomes, "compact", () ->
        {
            engine.compact(1);
            return engine.compactRevision();
        });
        call(outcomes, "leaseGrantAsync", () -> engine.leases().grantAsync(0, 60));
        call(outcomes, "stats", () -> engine.stats().currentRevision());
        call(outcomes, "watchers", engine::watchers);
        return outcomes;
    }

    private static void call(final Map<String, Object> outcomes, final String name, final Supplier<Object> call)
    {
        try
        {
            outcomes.put(name, call.get());
        }
        catch (final RuntimeException | Error e)
        {
            outcomes.put(name, e);
        }
    }

    /**
     * @param after the state the reads must show, or null when they may show {@code before} only
     *              (inside the revision that makes the next state).
     */
    private static void check(final Map<String, Object> calls, final TreeMap<String, String> before,
        final TreeMap<String, String> after) throws Exception
    {
        final TreeMap<String, String> now = after == null ? before : after;
        final List<String> problems = new ArrayList<>();
        for (final Map.Entry<String, Object> call : calls.entrySet())
        {
            final Object outcome = call.getValue();
            if (outcome instanceof Throwable t)
            {
                if (!(t instanceof RingWatchException))
                {
                    problems.add(call.getKey() + ": untyped " + t);
                }
                continue;
            }
            switch (call.getKey())
            {
                case "range", "listAndWatch" -> assertEquals(now, CompletionWritesTest.map((RangeResult)outcome), call.getKey());
                case "count" -> assertEquals((long)now.size(), outcome, call.getKey());
                case "byIndex" -> assertEquals(Map.of("b", "2"), CompletionWritesTest.map((RangeResult)outcome));
                case "rangeAt1" -> assertEquals(Map.of("a", "1"), CompletionWritesTest.map((RangeResult)outcome));
                case "get" -> assertEquals("2", outcome);
                case "watchAndCancel" -> assertEquals(true, outcome);
                case "putAsync", "txnAsync", "leaseGrantAsync" -> ((CompletableFuture<?>)outcome).get(60, TimeUnit.SECONDS);
                case "compact" -> assertEquals(1L, outcome);
                default ->
                {
                }
            }
        }
        assertTrue(problems.isEmpty(), problems.toString());
    }

    private static void engineGoesOn(final RingWatch engine, final TreeMap<String, String> state)
    {
        final long revision = engine.put("later", "1").revision();
        assertEquals(revision, engine.currentRevision());
        final TreeMap<String, String> seen = CompletionWritesTest.map(engine.range(KeyRange.all(), 0));
        for (final Map.Entry<String, String> entry : state.entrySet())
        {
            assertEquals(entry.getValue(), seen.get(entry.getKey()), entry.getKey());
        }
        assertInstanceOf(Long.class, engine.count(KeyRange.all()));
    }
}
