package io.ringwatch.engine;

import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.stats.WatcherView;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.WatchListener;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.engine.watch.Watcher;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WatcherViewTest
{
    private final RingWatch engine = RingWatch.open();

    @AfterEach
    void close()
    {
        engine.close();
    }

    @Test
    void aPullWatcherNotPolledLagsByTheRevisionsItHasNotTakenAndCatchesUpWhenPolled() throws Exception
    {
        engine.put("/a/0", "x");
        final PullWatcher watcher = engine.watchPull(WatchRequest.of(KeyRange.prefix("/a/")));
        WatcherView view = viewOf(watcher);
        assertEquals(2, view.startRevision(), "a watch from now names the revision it starts from");
        assertEquals(1, view.position());
        assertEquals(0, view.lag());
        assertFalse(view.isPush());
        assertEquals(WatcherView.State.SYNCED, view.state());
        assertNull(view.cancelReason());

        for (int i = 1; i <= 10; i++)
        {
            engine.put("/a/" + i, "x");
        }
        awaitTrue(() -> viewOf(watcher).queued() == 10);
        view = viewOf(watcher);
        assertEquals(1, view.position());
        assertEquals(10, view.lag());

        final AtomicLong events = new AtomicLong();
        final WatchListener count = batch -> events.addAndGet(batch.size());
        while (events.get() < 10)
        {
            watcher.poll(count, 100);
        }
        view = viewOf(watcher);
        assertEquals(11, view.position());
        assertEquals(0, view.lag());
        assertEquals(0, view.queued());
    }

    @Test
    void aNeverPolledWatcherTakenOffTheRoutesIsShownCatchingUpAndItsLagIsTheEnginesLargest() throws Exception
    {
        try (RingWatch small = RingWatch.open(RingWatchConfig.builder().watcherQueueDepth(16).build()))
        {
            final PullWatcher neverPolled = small.watchPull(WatchRequest.of(KeyRange.prefix("/a/")));
            final PullWatcher polled = small.watchPull(WatchRequest.of(KeyRange.prefix("/a/")));
            final AtomicLong events = new AtomicLong();
            final WatchListener count = batch -> events.addAndGet(batch.size());
            for (int i = 0; i < 100; i++)
            {
                small.put("/a/" + i, "x");
                while (events.get() <= i)
                {
                    polled.poll(count, 100);
                }
            }
            // Its queue of 16 overflowed: the dispatcher took it off the routes and asked its
            // consumer, which never runs, to catch up by cursor.
            final WatcherView view = small.watchers().stream().filter(v -> v.id() == neverPolled.id()).findFirst().orElseThrow();
            assertEquals(WatcherView.State.CATCHING_UP, view.state());
            assertEquals(0, view.queued());
            assertEquals(100, view.lag());
            assertEquals(100, small.stats().maxWatcherLag());
            assertEquals(1, small.stats().watchersIn(WatcherView.State.CATCHING_UP));

            neverPolled.close();
            assertEquals(0, small.stats().maxWatcherLag(), "the polled watcher has every event");
        }
    }

    @Test
    void aWatcherOfKeysThatDoNotChangeIsNotCountedAsLagging() throws Exception
    {
        final Watcher quiet = engine.watch(WatchRequest.of(KeyRange.key("/quiet")), batch -> { });
        for (int i = 0; i < 20; i++)
        {
            engine.put("/busy", "x" + i);
        }
        awaitTrue(() -> viewOf(quiet).lag() == 0);
        assertTrue(viewOf(quiet).isPush());
        assertEquals(20, viewOf(quiet).position());
    }

    @Test
    void aCancelledWatcherLeavesTheListAndTheListCannotBeChanged()
    {
        final PullWatcher first = engine.watchPull(WatchRequest.of(KeyRange.all()));
        final PullWatcher second = engine.watchPull(WatchRequest.of(KeyRange.all()).startRevision(5));
        final List<WatcherView> views = engine.watchers();
        assertEquals(List.of(first.id(), second.id()), views.stream().map(WatcherView::id).toList());
        assertEquals(5, views.get(1).startRevision(), "a watch from a future revision waits for it: no lag");
        assertEquals(0, views.get(1).lag());
        assertThrows(UnsupportedOperationException.class, () -> views.remove(0));

        first.cancel();
        assertEquals(List.of(second.id()), engine.watchers().stream().map(WatcherView::id).toList());
    }

    private WatcherView viewOf(final Watcher watcher)
    {
        return engine.watchers().stream().filter(v -> v.id() == watcher.id()).findFirst().orElseThrow();
    }

    private static void awaitTrue(final java.util.function.BooleanSupplier condition) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean())
        {
            assertTrue(System.nanoTime() < deadline, "condition not met in 30 s");
            TimeUnit.MILLISECONDS.sleep(2);
        }
    }
}
