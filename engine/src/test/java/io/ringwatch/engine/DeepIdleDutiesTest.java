package io.ringwatch.engine;

import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.idle.WakeableIdleStrategy;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.watch.CancelReason;
import io.ringwatch.engine.watch.EventBatch;
import io.ringwatch.engine.watch.EventType;
import io.ringwatch.engine.watch.WatchListener;
import io.ringwatch.engine.watch.WatchRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each piece of work that no thread rings for still happens on an engine whose threads idle
 * deeply. Meant for the {@code deep-idle} surefire run, where a deep park lasts ten hours: a duty
 * that waited for a park to run out would hang, and the timeout fails it. Each test first lets
 * the engine idle past {@link WakeableIdleStrategy#DEEP_IDLE_AFTER_NANOS} (a pause, not a timing
 * assertion: any pause is correct, a long enough one exercises the deep park).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DeepIdleDutiesTest
{
    private RingWatch engine;

    @AfterEach
    void close()
    {
        if (engine != null)
        {
            engine.close();
        }
    }

    @Test
    void periodicProgressReachesAWatcherOfAnIdleEngine() throws InterruptedException
    {
        engine = RingWatch.open(RingWatchConfig.builder().progressNotifyInterval(Duration.ofMillis(200)).build());
        engine.put("k", "1");
        idleDeeply();
        final RecordingListener listener = new RecordingListener();
        engine.watch(WatchRequest.of(KeyRange.key("quiet")).withProgressNotify(), listener);
        idleDeeply();
        assertEquals(1, listener.awaitProgressAtLeast(1));
        final int heard = listener.progress().size();
        RecordingListener.await(() -> listener.progress().size() > heard, "a second periodic progress");
    }

    @Test
    void aLeaseExpiresOnAnIdleEngine() throws InterruptedException
    {
        final AtomicLong clock = new AtomicLong(1_000_000);
        engine = RingWatch.open(RingWatchConfig.builder().leaseClock(clock::get).leaseCheckInterval(Duration.ofMillis(5)).build());
        final long lease = engine.leases().grant(5).id();
        engine.write(Op.put("a", "1").withLease(lease));
        final RecordingListener listener = new RecordingListener();
        engine.watch(WatchRequest.of(KeyRange.key("a")), listener);
        idleDeeply();
        clock.addAndGet(5_000);
        assertEquals(EventType.DELETE, listener.awaitEvents(1).get(0).type());
    }

    @Test
    void aListenerThatBlocksAfterIdleIsReplacedAndTheSurplusThreadRetiresOnceItReturns() throws InterruptedException
    {
        engine = RingWatch.open(RingWatchConfig.builder().deliveryThreads(1).maxDeliveryThreads(2)
            .deliveryKeepAlive(Duration.ofMillis(50)).slowListenerTimeout(Duration.ofHours(1)).build());
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        engine.watch(WatchRequest.of(KeyRange.key("block")), new WatchListener()
        {
            @Override
            public void onEvents(final EventBatch events)
            {
                entered.countDown();
                try
                {
                    release.await();
                }
                catch (final InterruptedException e)
                {
                    Thread.currentThread().interrupt();
                }
            }
        });
        final RecordingListener other = new RecordingListener();
        engine.watch(WatchRequest.of(KeyRange.key("other")), other);
        idleDeeply();
        try
        {
            engine.put("block", "1");
            assertTrue(entered.await(30, TimeUnit.SECONDS));
            engine.put("other", "1");
            other.awaitEvents(1);
            assertEquals(1, engine.stats().deliveryThreadsReplaced(), "the housekeeper saw the block");
        }
        finally
        {
            release.countDown();
        }
        RecordingListener.await(() -> engine.stats().deliveryThreads() == 1, "the surplus thread retired");
    }

    @Test
    void aWatchAWriteAndACloseAfterIdleAllHappen() throws InterruptedException
    {
        engine = RingWatch.open();
        idleDeeply();
        final RecordingListener listener = new RecordingListener();
        engine.watch(WatchRequest.of(KeyRange.key("k")), listener);
        idleDeeply();
        engine.put("k", "1");
        assertEquals(1, listener.awaitEvents(1).size());
        idleDeeply();
        engine.close();
        assertEquals(CancelReason.ENGINE_CLOSED, listener.awaitCancellation().reason());
    }

    private static void idleDeeply() throws InterruptedException
    {
        TimeUnit.NANOSECONDS.sleep(WakeableIdleStrategy.DEEP_IDLE_AFTER_NANOS * 5);
    }
}
