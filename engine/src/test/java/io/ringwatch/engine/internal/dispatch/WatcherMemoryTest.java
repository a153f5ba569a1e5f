package io.ringwatch.engine.internal.dispatch;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.WatchRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * What a watcher holds: while idle no queue and neither the shard's nor the consumer's fields, one copy
 * of its key and not the caller's request; at most its depth while routed; no queue once it reads by
 * cursor or is cancelled, whether or not its consumer ever drains it.
 */
class WatcherMemoryTest
{
    private final RingWatch engine = RingWatch.open(RingWatchConfig.builder().watcherQueueDepth(64).build());

    @AfterEach
    void close()
    {
        engine.close();
    }

    @Test
    void anIdleWatcherHoldsNoQueue()
    {
        final WatcherState watcher = (WatcherState)engine.watchPull(WatchRequest.of(KeyRange.key("idle")));
        engine.put("other", "v");
        assertTrue(engine.waitForRevision(1, Duration.ofSeconds(10)));
        assertNull(watcher.pending());
    }

    @Test
    void anIdleWatcherHoldsNeitherShardFieldsNorAConsumerSideEvenWhenPolled()
    {
        final PullWatcher pull = engine.watchPull(WatchRequest.of(KeyRange.key("idle")));
        final WatcherState watcher = (WatcherState)pull;
        engine.put("other", "v");
        assertTrue(engine.waitForRevision(1, Duration.ofSeconds(10)));
        await(() -> engine.watcherCount() == 1, "the registration");
        assertEquals(0, pull.poll((batch) -> fail("no event is owed"), 10));
        assertNull(watcher.shardFieldsOrNull());
        assertFalse(watcher.hasConsumerSide());
    }

    @Test
    void aWatcherKeepsOneCopyOfItsKeyAndRebuildsAnEqualRequest()
    {
        final WatchRequest request = WatchRequest.of(KeyRange.key("one-copy")).withPrevKv().noDelete();
        final WatcherState watcher = (WatcherState)engine.watchPull(request);
        assertSame(request.range().fromKey(), watcher.exactKey(), "the request's own key, not a copy");
        assertEquals(request, watcher.request());
        assertNotSame(request, watcher.request());
    }

    @Test
    void requestIsEqualToTheCallersForEveryKindOfWatch()
    {
        engine.addIndex("first-byte", (value, offset, length, sink) -> sink.accept(value, offset, 1));
        final List<WatchRequest> requests = List.of(
            WatchRequest.of(KeyRange.key("k")),
            WatchRequest.of(KeyRange.key("k")).startRevision(1).withProgressNotify(),
            WatchRequest.of(KeyRange.prefix("p/")).noPut(),
            WatchRequest.of(KeyRange.range("a", "m")).withPrevKv().noDelete().withProgressNotify(),
            WatchRequest.of(KeyRange.from("m".getBytes(StandardCharsets.UTF_8))),
            WatchRequest.of(KeyRange.all()).startRevision(2),
            WatchRequest.byIndex("first-byte", "x").withPrevKv());
        for (final WatchRequest request : requests)
        {
            assertEquals(request, engine.watchPull(request).request(), request.toString());
            assertEquals(request, engine.watch(request, (batch) -> { }).request(), request.toString());
        }
    }

    @Test
    void aCancelFreesTheQueueOfAWatcherThatNeverDrains()
    {
        final WatcherState watcher = (WatcherState)engine.watchPull(WatchRequest.of(KeyRange.all()));
        for (int i = 0; i < 10; i++)
        {
            engine.put("k", "v" + i);
        }
        await(() -> watcher.pending() != null && watcher.pending().size() == 10, "ten queued events");
        watcher.cancel();
        await(() -> watcher.pending() == null, "the queue freed by the cancel");
    }

    @Test
    void aWatcherBeyondItsDepthLeavesTheRoutesAndItsQueue()
    {
        final PullWatcher pull = engine.watchPull(WatchRequest.of(KeyRange.all()));
        final WatcherState watcher = (WatcherState)pull;
        for (int i = 0; i < 100; i++)
        {
            engine.put("k", "v" + i);
        }
        await(() -> !watcher.isRouted() && watcher.pending() == null, "the watcher off the routes, its queue taken away");
        assertFalse(pull.isCancelled());
    }

    private static void await(final BooleanSupplier condition, final String what)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() > deadline)
            {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.yield();
        }
    }
}
