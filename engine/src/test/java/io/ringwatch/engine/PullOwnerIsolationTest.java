package io.ringwatch.engine;

import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.idle.Doorbell;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.watch.CancelReason;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.ReadyQueue;
import io.ringwatch.engine.watch.WatchRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The dispatcher runs no pull watcher owner's code: an owner that never drains its ready queue
 * (its thread blocked) delays neither a push listener nor another pull watcher of the same, only,
 * dispatcher shard. With the owner's signal that ran on the dispatcher (before {@link ReadyQueue}),
 * a signal blocked on a latch stalled both. The waits are liveness bounds, never a measure of speed.
 */
class PullOwnerIsolationTest
{
    private static final int EVENTS = 10;
    private static final long PATIENCE_NANOS = TimeUnit.SECONDS.toNanos(60);

    private final CountDownLatch release = new CountDownLatch(1);
    private final RingWatch engine = RingWatch.open(RingWatchConfig.builder().dispatcherThreads(1).build());

    @AfterEach
    void close() throws InterruptedException
    {
        release.countDown();
        engine.close();
    }

    @Test
    void anOwnerThatNeverDrainsDelaysNoOtherWatcherOfItsShard() throws InterruptedException
    {
        final PullWatcher blocked = engine.watchPull(WatchRequest.of(KeyRange.prefix("k")));
        final ReadyQueue<PullWatcher> blockedQueue = ReadyQueue.wakingWith(new Doorbell());
        final ReadyQueue.Entry<PullWatcher> blockedEntry = blockedQueue.entry(blocked);
        // The owner's thread blocks for good before it drains anything.
        final Thread owner = new Thread(() ->
        {
            blocked.readyIn(blockedEntry);
            awaitRelease();
        }, "blocked-owner");
        owner.start();
        final RecordingListener push = new RecordingListener();
        engine.watch(WatchRequest.of(KeyRange.prefix("k")), push);
        final PullWatcher other = engine.watchPull(WatchRequest.of(KeyRange.prefix("k")));
        final ReadyQueue<PullWatcher> otherQueue = ReadyQueue.wakingWith(new Doorbell());
        other.readyIn(otherQueue.entry(other));

        for (int i = 0; i < EVENTS; i++)
        {
            engine.put("k" + i, "v");
        }
        final RecordingListener pulled = new RecordingListener();
        final long deadline = System.nanoTime() + PATIENCE_NANOS;
        int otherEvents = 0;
        while ((otherEvents < EVENTS || push.events().size() < EVENTS) && System.nanoTime() < deadline)
        {
            for (ReadyQueue.Entry<PullWatcher> entry = otherQueue.poll(); entry != null; entry = otherQueue.poll())
            {
                entry.unmark();
                otherEvents += entry.attachment().poll(pulled, EVENTS);
            }
            Thread.sleep(1);
        }
        assertEquals(EVENTS, push.events().size(), "the push listener got every event");
        assertEquals(EVENTS, otherEvents, "the other pull watcher got every event");

        release.countDown();
        owner.join();
        assertSame(blockedEntry, blockedQueue.poll(), "the blocked owner's watcher was marked");
        assertNull(blockedQueue.poll(), "once, however many hand-overs came");
        blockedEntry.unmark();
        assertEquals(EVENTS, blocked.poll(new RecordingListener(), 2 * EVENTS), "and lost nothing");
    }

    @Test
    void aCancelledWatcherIsMarkedForItsEndAndNeverAfter() throws InterruptedException
    {
        final PullWatcher watcher = engine.watchPull(WatchRequest.of(KeyRange.prefix("c")));
        final ReadyQueue<PullWatcher> queue = ReadyQueue.wakingWith(new Doorbell());
        final ReadyQueue.Entry<PullWatcher> entry = queue.entry(watcher);
        watcher.readyIn(entry);
        final RecordingListener polled = new RecordingListener();
        watcher.cancel();
        final long deadline = System.nanoTime() + PATIENCE_NANOS;
        while (polled.cancellation() == null && System.nanoTime() < deadline)
        {
            final ReadyQueue.Entry<PullWatcher> marked = queue.poll();
            if (marked != null)
            {
                assertSame(entry, marked);
                marked.unmark();
                marked.attachment().poll(polled, EVENTS);
            }
            Thread.sleep(1);
        }
        assertEquals(CancelReason.CANCELLED_BY_CLIENT, polled.cancellation().reason(), "the end was marked and polled");
        // The end may be pollable before the dispatcher has taken the cancel, whose hand-over then
        // marks the entry once more: once the shard has handled the removal, that spare mark is taken.
        ShardBarrier.pass(engine);
        queue.drain(ReadyQueue.Entry::unmark);

        // A push watcher of the same shard sees the writes only after the dispatcher handed them
        // over, and marked every pull watcher they were for.
        final RecordingListener witness = new RecordingListener();
        engine.watch(WatchRequest.of(KeyRange.prefix("c")), witness);
        for (int i = 0; i < EVENTS; i++)
        {
            engine.put("c" + i, "v");
        }
        witness.awaitEvents(EVENTS);
        assertFalse(entry.isMarked(), "an ended watcher is marked no more");
        assertTrue(queue.isEmpty());
    }

    private void awaitRelease()
    {
        try
        {
            release.await();
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
    }
}
