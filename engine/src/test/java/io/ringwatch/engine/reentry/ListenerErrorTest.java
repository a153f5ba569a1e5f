package io.ringwatch.engine.reentry;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.watch.EventBatch;
import io.ringwatch.engine.watch.WatchCancellation;
import io.ringwatch.engine.watch.WatchListener;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.engine.watch.Watcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A push listener's {@code onCancelled} that throws an {@link Error} of the user's own
 * ({@link StackOverflowError} from a recursive clean-up): it must end nothing but its own watch.
 * Found failing on main 693a712: {@code onCancelled} was guarded against {@link RuntimeException}
 * only (its events and progress against both), so the Error ended the delivery thread it ran on,
 * printed by the JVM's default handler, and the housekeeper started another in its place. With one
 * delivery thread and a cap of one, a healthy watcher's events must then still be delivered by that
 * same thread: the thread identity decides, not time. The 60 s waits only turn a hang into a
 * failure.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ListenerErrorTest
{
    @Test
    void anErrorFromOnCancelledEndsOnlyItsOwnWatch() throws Exception
    {
        final RingWatchConfig config = RingWatchConfig.builder().deliveryThreads(1).maxDeliveryThreads(1).build();
        try (RingWatch engine = RingWatch.open(config))
        {
            final AtomicReference<Thread> cancelledOn = new AtomicReference<>();
            final CountDownLatch cancelled = new CountDownLatch(1);
            final Watcher failing = engine.watch(WatchRequest.of(KeyRange.prefix("a/")), new WatchListener()
            {
                @Override
                public void onEvents(final EventBatch events)
                {
                }

                @Override
                public void onCancelled(final WatchCancellation cancellation)
                {
                    cancelledOn.set(Thread.currentThread());
                    cancelled.countDown();
                    throw new StackOverflowError("the user's own");
                }
            });
            final List<String> threads = new ArrayList<>();
            final CountDownLatch received = new CountDownLatch(100);
            engine.watch(WatchRequest.of(KeyRange.prefix("b/")), events ->
            {
                synchronized (threads)
                {
                    threads.add(Thread.currentThread().getName());
                }
                for (int i = 0; i < events.size(); i++)
                {
                    received.countDown();
                }
            });
            failing.cancel();
            assertTrue(cancelled.await(60, TimeUnit.SECONDS));
            for (int i = 0; i < 100; i++)
            {
                engine.put("b/" + i, "v");
            }
            assertTrue(received.await(60, TimeUnit.SECONDS), "the healthy watcher was starved");
            synchronized (threads)
            {
                for (final String thread : threads)
                {
                    assertEquals(cancelledOn.get().getName(), thread, "the delivery thread died and was replaced");
                }
            }
            assertTrue(cancelledOn.get().isAlive());
            assertEquals(0, engine.stats().deliveryThreadsReplaced());
        }
    }
}
