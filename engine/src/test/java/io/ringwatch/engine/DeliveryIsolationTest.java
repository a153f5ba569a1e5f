package io.ringwatch.engine;

import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.errors.EngineClosedException;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.watch.CancelReason;
import io.ringwatch.engine.watch.Event;
import io.ringwatch.engine.watch.EventBatch;
import io.ringwatch.engine.watch.WatchCancellation;
import io.ringwatch.engine.watch.WatchListener;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.engine.watch.Watcher;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A listener that blocks costs one delivery thread and nothing else, and a listener may close
 * the engine. The slow-listener timeout is set far past the tests' patience, so that only the
 * pool's compensation, never the cancel policy, can free the other watchers.
 */
class DeliveryIsolationTest
{
    private static final Duration NEVER = Duration.ofMinutes(10);

    private final CountDownLatch release = new CountDownLatch(1);
    private RingWatch engine;

    @AfterEach
    void close()
    {
        release.countDown();
        if (engine != null)
        {
            engine.close();
        }
    }

    @Test
    void listenersBlockedForEverCostOneThreadEachAndEveryOtherPushWatcherGetsEverything()
    {
        engine = RingWatch.open(RingWatchConfig.builder().deliveryThreads(2).slowListenerTimeout(NEVER).build());
        final List<Watcher> blocked = new ArrayList<>();
        final List<CountDownLatch> entered = new ArrayList<>();
        for (int i = 0; i < 3; i++)
        {
            final CountDownLatch in = new CountDownLatch(1);
            entered.add(in);
            blocked.add(engine.watch(WatchRequest.of(KeyRange.prefix("/")), blockingListener(in)));
        }
        final int groups = 20;
        final int perGroup = 10;
        final List<RecordingListener> healthy = new ArrayList<>();
        for (int i = 0; i < groups * perGroup; i++)
        {
            final RecordingListener listener = new RecordingListener();
            healthy.add(listener);
            engine.watch(WatchRequest.of(KeyRange.prefix("/g" + i % groups + "/")), listener);
        }

        final int writes = 2_000;
        for (int i = 0; i < writes; i++)
        {
            engine.put("/g" + i % groups + "/k" + i, "v" + i);
        }
        for (final CountDownLatch in : entered)
        {
            RecordingListener.await(() -> in.getCount() == 0, "every blocked listener entered");
        }
        for (int i = 0; i < healthy.size(); i++)
        {
            final int group = i % groups;
            final List<Event> events = healthy.get(i).awaitEvents(writes / groups);
            assertEquals(writes / groups, events.size(), "watcher " + i);
            for (int e = 0; e < events.size(); e++)
            {
                assertEquals(group + 1 + (long)e * groups, events.get(e).revision(), "watcher " + i + "'s events in order");
            }
        }
        for (final Watcher watcher : blocked)
        {
            assertFalse(watcher.isCancelled(), "no cancel policy freed anything: " + watcher.cancellation());
        }
    }

    @Test
    void closeFromInsideAListenerReturnsAtOnceAndTheListenerHearsItsCancellationAfterItReturns()
    {
        engine = RingWatch.open(RingWatchConfig.builder().slowListenerTimeout(NEVER).build());
        final CountDownLatch closed = new CountDownLatch(1);
        final AtomicReference<WatchCancellation> ending = new AtomicReference<>();
        final AtomicReference<Throwable> closeFailed = new AtomicReference<>();
        engine.watch(WatchRequest.of(KeyRange.key("stop")), new WatchListener()
        {
            @Override
            public void onEvents(final EventBatch events)
            {
                try
                {
                    engine.close();
                }
                catch (final RuntimeException | Error e)
                {
                    closeFailed.set(e);
                }
                closed.countDown();
            }

            @Override
            public void onCancelled(final WatchCancellation cancellation)
            {
                ending.set(cancellation);
            }
        });
        final RecordingListener other = new RecordingListener();
        engine.watch(WatchRequest.of(KeyRange.key("other")), other);
        engine.put("other", "1");
        engine.put("stop", "now");

        // Waiting for itself, close would not return before the slow-listener timeout (10 minutes).
        RecordingListener.await(() -> closed.getCount() == 0, "close() called from a listener to return");
        assertEquals(null, closeFailed.get());
        RecordingListener.await(() -> ending.get() != null, "the closing listener's own cancellation");
        assertEquals(CancelReason.ENGINE_CLOSED, ending.get().reason());
        assertEquals(CancelReason.ENGINE_CLOSED, other.awaitCancellation().reason());
        assertEquals(1, other.events().size(), "the other watcher got its event before the close");
        assertThrows(EngineClosedException.class, () -> engine.put("after", "close"));
    }

    private WatchListener blockingListener(final CountDownLatch entered)
    {
        return new WatchListener()
        {
            @Override
            public void onEvents(final EventBatch events)
            {
                entered.countDown();
                try
                {
                    release.await(1, TimeUnit.HOURS);
                }
                catch (final InterruptedException e)
                {
                    Thread.currentThread().interrupt();
                }
            }

            @Override
            public void onCancelled(final WatchCancellation cancellation)
            {
            }
        };
    }
}
