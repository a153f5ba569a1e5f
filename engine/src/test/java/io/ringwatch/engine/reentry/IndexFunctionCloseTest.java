package io.ringwatch.engine.reentry;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.errors.EngineClosedException;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.RangeResult;
import io.ringwatch.engine.secondary.IndexFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code close()} called inside an index function that runs on the caller's thread (the build scan
 * of {@code addIndex} and the pre-images a {@code byIndex} read undoes) or on a dispatcher routing
 * a watch by index. That call is counted inside
 * the engine, and the close waits for every call inside to leave before it frees the index, so it
 * waited for itself for ever (found on main 817b6a0: both tests hung). As inside a write's
 * completion, the close must refuse new calls and return at once, the call it interrupted must end
 * (its own answer, exact, or {@link EngineClosedException}), and a later close return once the
 * engine is closed. The 60 s timeout only turns a hang into a failure.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class IndexFunctionCloseTest
{
    @Test
    void closeInsideAnAddIndexBuildReturnsAndTheAddEnds() throws Exception
    {
        final RingWatch engine = RingWatch.open(RingWatchConfig.builder().build());
        engine.put("a", "1");
        engine.put("b", "2");
        final CloseOnce close = new CloseOnce(engine);
        final IndexFunction closing = (value, offset, length, sink) ->
        {
            close.fromCaller();
            sink.accept(value, offset, length);
        };
        final CompletableFuture<Object> add = new CompletableFuture<>();
        final Thread caller = new Thread(() -> add.complete(outcome(() ->
        {
            engine.addIndex("closing", closing);
            return "added";
        })), "add-index-caller");
        close.caller = caller;
        caller.start();

        close.assertReturned();
        final Object outcome = add.get(60, TimeUnit.SECONDS);
        assertTrue("added".equals(outcome) || outcome instanceof EngineClosedException, "addIndex ended with " + outcome);
        assertClosed(engine);
    }

    @Test
    void closeInsideAByIndexReadReturnsAndTheReadEndsExact() throws Exception
    {
        final RingWatch engine = RingWatch.open(RingWatchConfig.builder().build());
        final CloseOnce close = new CloseOnce(engine);
        engine.addIndex("self", (value, offset, length, sink) ->
        {
            close.fromCaller();
            sink.accept(value, offset, length);
        });
        engine.put("x1", "a");
        engine.put("x2", "a");
        engine.put("x3", "b");
        final Map<Long, String> hotAt = new ConcurrentHashMap<>();
        final AtomicReference<Throwable> writerFailure = new AtomicReference<>();
        // Changes "hot" while the reads run, so a read undoes a pre-image: the index function runs on its thread.
        final Thread writer = new Thread(() ->
        {
            try
            {
                for (int i = 0; ; i++)
                {
                    final String value = (i & 1) == 0 ? "a" : "b";
                    hotAt.put(engine.put("hot", value).revision(), value);
                }
            }
            catch (final EngineClosedException expected)
            {
                // The close ends the writes.
            }
            catch (final Throwable t)
            {
                writerFailure.set(t);
            }
        }, "hot-writer");
        final CompletableFuture<Object> read = new CompletableFuture<>();
        final Thread reader = new Thread(() ->
        {
            Object last = null;
            while (!close.called())
            {
                last = outcome(() -> engine.byIndex("self", "a"));
                if (last instanceof Throwable)
                {
                    break;
                }
            }
            read.complete(last);
        }, "by-index-caller");
        close.caller = reader;
        writer.start();
        reader.start();

        close.assertReturned();
        final Object outcome = read.get(60, TimeUnit.SECONDS);
        writer.join(60_000);
        assertNull(writerFailure.get());
        if (!(outcome instanceof EngineClosedException))
        {
            final RangeResult result = assertInstanceOf(RangeResult.class, outcome);
            final TreeMap<String, String> expected = new TreeMap<>(Map.of("x1", "a", "x2", "a"));
            String hot = null;
            for (long revision = result.revision(); revision > 0 && hot == null; revision--)
            {
                hot = hotAt.get(revision);
            }
            if ("a".equals(hot))
            {
                expected.put("hot", "a");
            }
            assertEquals(expected, CompletionWritesTest.map(result), "byIndex at revision " + result.revision());
        }
        assertClosed(engine);
    }

    /**
     * The dispatcher runs index functions too, routing a watch by index: a close there stopped the
     * dispatcher's runner and joined it, that is itself, for ever (found on main 817b6a0). It must
     * return at once, and the watch still hear the event being routed, then ENGINE_CLOSED.
     */
    @Test
    void closeInsideAnIndexFunctionRoutingAWatchReturnsAndTheWatchEndsClosed() throws Exception
    {
        final RingWatch engine = RingWatch.open(RingWatchConfig.builder().build());
        final CloseOnce close = new CloseOnce(engine);
        engine.addIndex("self", (value, offset, length, sink) ->
        {
            if (Thread.currentThread().getName().startsWith("ringwatch-dispatcher-"))
            {
                close.caller = Thread.currentThread();
                close.fromCaller();
            }
            sink.accept(value, offset, length);
        });
        final java.util.List<String> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        final CompletableFuture<io.ringwatch.engine.watch.WatchCancellation> ended = new CompletableFuture<>();
        engine.watch(io.ringwatch.engine.watch.WatchRequest.byIndex("self", "v"), new io.ringwatch.engine.watch.WatchListener()
        {
            @Override
            public void onEvents(final io.ringwatch.engine.watch.EventBatch events)
            {
                for (int i = 0; i < events.size(); i++)
                {
                    seen.add(events.get(i).keyBuffer().getStringWithoutLengthUtf8(0, events.get(i).keyLength()) + "@" +
                        events.get(i).revision());
                }
            }

            @Override
            public void onCancelled(final io.ringwatch.engine.watch.WatchCancellation cancellation)
            {
                ended.complete(cancellation);
            }
        });

        assertEquals(1, engine.put("k", "v").revision());

        close.assertReturned();
        assertEquals(io.ringwatch.engine.watch.CancelReason.ENGINE_CLOSED, ended.get(60, TimeUnit.SECONDS).reason());
        assertEquals(java.util.List.of("k@1"), seen);
        assertClosed(engine);
    }

    private static void assertClosed(final RingWatch engine)
    {
        assertThrows(EngineClosedException.class, () -> engine.put("late", "x"));
        assertThrows(EngineClosedException.class, () -> engine.range(KeyRange.all(), 0));
        // A later close returns once the close is done.
        engine.close();
    }

    private static Object outcome(final java.util.function.Supplier<Object> call)
    {
        try
        {
            return call.get();
        }
        catch (final RuntimeException | Error e)
        {
            return e;
        }
    }

    /** Closes the engine the first time the index function runs on the chosen caller's thread. */
    private static final class CloseOnce
    {
        private final RingWatch engine;
        private final CountDownLatch returned = new CountDownLatch(1);
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        private volatile boolean called;
        volatile Thread caller;

        CloseOnce(final RingWatch engine)
        {
            this.engine = engine;
        }

        void fromCaller()
        {
            if (Thread.currentThread() != caller || called)
            {
                return;
            }
            called = true;
            try
            {
                engine.close();
            }
            catch (final Throwable t)
            {
                failure.set(t);
            }
            finally
            {
                returned.countDown();
            }
        }

        boolean called()
        {
            return called;
        }

        void assertReturned() throws InterruptedException
        {
            assertTrue(returned.await(60, TimeUnit.SECONDS), "close inside the index function never returned");
            assertNull(failure.get());
        }
    }
}
