package io.ringwatch.engine.dispatch;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.RingWatchConfig;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.WatchRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a watcher holds: no queue while idle, at most its depth while routed, none once it reads by cursor
 * or is cancelled, whether or not its consumer ever drains it.
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
        assertTrue(engine.waitForRevision(1, java.time.Duration.ofSeconds(10)));
        assertNull(watcher.pending);
    }

    @Test
    void aCancelFreesTheQueueOfAWatcherThatNeverDrains()
    {
        final WatcherState watcher = (WatcherState)engine.watchPull(WatchRequest.of(KeyRange.all()));
        for (int i = 0; i < 10; i++)
        {
            engine.put("k", "v" + i);
        }
        await(() -> watcher.pending != null && watcher.pending.size() == 10, "ten queued events");
        watcher.cancel();
        await(() -> watcher.pending == null, "the queue freed by the cancel");
    }

    @Test
    void aWatcherBeyondItsDepthLeavesTheRoutesAndFreesItsQueue()
    {
        final PullWatcher pull = engine.watchPull(WatchRequest.of(KeyRange.all()));
        final WatcherState watcher = (WatcherState)pull;
        for (int i = 0; i < 100; i++)
        {
            engine.put("k", "v" + i);
        }
        await(() -> !watcher.isRouted() && watcher.pending == null, "the watcher off the routes, its queue freed");
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
