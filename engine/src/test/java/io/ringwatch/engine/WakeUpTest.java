package io.ringwatch.engine;

import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.idle.Doorbell;
import io.ringwatch.engine.idle.WakeableIdleStrategy;
import io.ringwatch.engine.idle.WakeableWaitStrategy;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.watch.CancelReason;
import io.ringwatch.engine.watch.Event;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.ReadyQueue;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.engine.watch.WatchResponse;
import io.ringwatch.engine.watch.Watcher;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every engine thread idles with a wakeable strategy that parks for ten minutes without spinning
 * first, so any hand-off that forgets to ring its consumer's doorbell leaves that consumer asleep
 * far past these tests' patience. Each test waits between steps, so that the threads are parked
 * when the next step comes.
 */
class WakeUpTest
{
    private static final long PARK_NANOS = TimeUnit.MINUTES.toNanos(10);
    private static final Duration PATIENCE = RecordingListener.PATIENCE;

    private final RingWatch engine = RingWatch.open(RingWatchConfig.builder()
        .dispatcherThreads(1)
        .writerWaitStrategy(() -> new WakeableWaitStrategy(0, 0, PARK_NANOS))
        .dispatcherIdleStrategy(() -> new WakeableIdleStrategy(0, 0, PARK_NANOS))
        .deliveryIdleStrategy(() -> new WakeableIdleStrategy(0, 0, PARK_NANOS))
        .build());

    @AfterEach
    void close()
    {
        assertTimeoutPreemptively(PATIENCE, engine::close, "close woke the parked threads");
    }

    @Test
    void writesEventsAndTheirDeliveryEachWakeTheThreadThatParked() throws InterruptedException
    {
        final RecordingListener push = new RecordingListener();
        engine.watch(WatchRequest.of(KeyRange.prefix("k")), push);
        final PullWatcher pull = engine.watchPull(WatchRequest.of(KeyRange.prefix("k")));

        final List<Event> pulled = new ArrayList<>();
        for (int i = 1; i <= 3; i++)
        {
            settle();
            assertEquals(i, engine.put("k" + i, "v").revision(), "the writer woke for put " + i);
            assertEquals(i, push.awaitEvents(i).size(), "the dispatcher and the delivery thread woke");
            pulled.addAll(pull.next(PATIENCE).events());
        }
        assertEquals(List.of(1L, 2L, 3L), pulled.stream().map(Event::revision).toList(), "the pull watcher's next woke");
    }

    @Test
    void handOffThreadsThatSpinForATimeBeforeTheyParkAreStillWokenOnceParked()
    {
        // The dispatcher and delivery threads spin 2 ms after their work (as forHandOffs() does on
        // a large machine), then park for ten minutes: writes closer together than the spin are
        // taken while spinning, and a write after a pause must ring the parked threads awake.
        final long spinNanos = TimeUnit.MILLISECONDS.toNanos(2);
        try (RingWatch spinning = RingWatch.open(RingWatchConfig.builder()
            .writerWaitStrategy(() -> new WakeableWaitStrategy(0, 0, PARK_NANOS))
            .dispatcherIdleStrategy(() -> new WakeableIdleStrategy(0, spinNanos, 0, PARK_NANOS))
            .deliveryIdleStrategy(() -> new WakeableIdleStrategy(0, spinNanos, 0, PARK_NANOS))
            .build()))
        {
            final RecordingListener push = new RecordingListener();
            spinning.watch(WatchRequest.of(KeyRange.prefix("k")), push);
            int written = 0;
            for (int round = 1; round <= 3; round++)
            {
                settle();
                for (int i = 0; i < 50; i++)
                {
                    spinning.put("k" + written, "v");
                    written++;
                }
                assertEquals(written, push.awaitEvents(written).size(), "round " + round + " was delivered");
            }
        }
    }

    @Test
    void aPullWatcherRingsTheDoorbellItWasGivenForEventsProgressAndItsEnd()
    {
        final PullWatcher pull = engine.watchPull(WatchRequest.of(KeyRange.prefix("d")));
        final Doorbell doorbell = new Doorbell();
        final RecordingListener polled = new RecordingListener();
        doorbell.arm();
        pull.wakeWith(doorbell);
        assertTrue(awaitRing(doorbell), "wakeWith rings once, for what was handed over before it");

        settle();
        doorbell.arm();
        engine.put("d1", "v");
        assertEquals(1, pollOnRings(pull, doorbell, polled), "events rang");

        settle();
        doorbell.arm();
        pull.requestProgress();
        assertTrue(awaitRing(doorbell), "a progress notification rang");
        pull.poll(polled, 10);

        settle();
        doorbell.arm();
        pull.cancel();
        assertTrue(awaitRing(doorbell), "the end of the watch rang");
    }

    @Test
    void aPullWatcherMarksItsReadyEntryAndNoOtherAndTheMarkRingsTheQueuesDoorbell()
    {
        final PullWatcher a = engine.watchPull(WatchRequest.of(KeyRange.prefix("sa")));
        final PullWatcher b = engine.watchPull(WatchRequest.of(KeyRange.prefix("sb")));
        final Doorbell doorbell = new Doorbell();
        final ReadyQueue<PullWatcher> ready = ReadyQueue.wakingWith(doorbell);
        final ReadyQueue.Entry<PullWatcher> entryOfA = ready.entry(a);
        final ReadyQueue.Entry<PullWatcher> entryOfB = ready.entry(b);
        final RecordingListener into = new RecordingListener();
        // Admitting a watch marks it too: let the shard admit both before the first drain.
        ShardBarrier.pass(engine);
        a.readyIn(entryOfA);
        b.readyIn(entryOfB);
        assertTrue(entryOfA.isMarked() && entryOfB.isMarked(), "readyIn marks once, for what was handed over before it");
        assertEquals(2, ready.drain(entry ->
        {
            entry.unmark();
            entry.attachment().poll(into, 10);
        }));

        engine.put("sa1", "v");
        // The owner's loop: take what is marked, else arm, look once more and park until a mark rings.
        int events = 0;
        while (events == 0)
        {
            doorbell.arm();
            final ReadyQueue.Entry<PullWatcher> marked = ready.poll();
            if (marked == null)
            {
                assertTrue(awaitRing(doorbell), "the mark rang the queue's doorbell");
                continue;
            }
            doorbell.disarm();
            marked.unmark();
            final int polled = marked.attachment().poll(into, 10);
            assertTrue(marked == entryOfA || polled == 0, "only the watcher handed the event has it");
            events += polled;
        }
        assertEquals(1, events, "the marked watcher had the event to poll");
        ShardBarrier.pass(engine);
        assertNull(ready.poll(), "the other watcher was not marked");
        assertFalse(entryOfB.isMarked());
        assertEquals(0, b.poll(into, 10));
    }

    /**
     * Polls each time the doorbell rings until the poll hands something over. A ring may come
     * before the event (the dispatcher admitting the new watch late on a loaded machine rings it
     * too), so the owner re-arms before each poll, as a real owner does: an event handed over after
     * that poll still rings.
     *
     * @return the events the first poll that found any handed over; 0 if a ring did not come in time.
     */
    private static int pollOnRings(final PullWatcher pull, final Doorbell doorbell, final RecordingListener into)
    {
        while (awaitRing(doorbell))
        {
            doorbell.arm();
            final int polled = pull.poll(into, 10);
            if (polled > 0)
            {
                return polled;
            }
        }
        return 0;
    }

    /** Parks as the doorbell's owner until a ring disarms it, or {@link #PATIENCE} passes. */
    private static boolean awaitRing(final Doorbell doorbell)
    {
        final long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (doorbell.isArmed() && System.nanoTime() < deadline)
        {
            doorbell.park(deadline - System.nanoTime());
        }
        return !doorbell.isArmed();
    }

    @Test
    void aWatchFromThePastIsReplayedByADispatcherItWokeUp()
    {
        engine.put("a", "1");
        engine.put("a", "2");
        settle();

        final RecordingListener listener = new RecordingListener();
        engine.watch(WatchRequest.of(KeyRange.key("a")).startRevision(1), listener);
        assertEquals(List.of(1L, 2L), listener.awaitEvents(2).stream().map(Event::revision).toList());
    }

    @Test
    void progressRequestsAndCancellationsWakeTheDispatcher()
    {
        engine.put("a", "1");
        final RecordingListener listener = new RecordingListener();
        final Watcher watcher = engine.watch(WatchRequest.of(KeyRange.key("b")), listener);
        settle();

        watcher.requestProgress();
        assertEquals(1, listener.awaitProgressAtLeast(1));
        settle();

        assertTimeoutPreemptively(PATIENCE, watcher::cancel);
        assertEquals(CancelReason.CANCELLED_BY_CLIENT, listener.awaitCancellation().reason());
    }

    @Test
    void closeEndsWatchersOfAnEngineWhoseThreadsAllPark() throws InterruptedException
    {
        final RecordingListener listener = new RecordingListener();
        engine.watch(WatchRequest.of(KeyRange.all()), listener);
        final PullWatcher pull = engine.watchPull(WatchRequest.of(KeyRange.all()));
        settle();

        assertTimeoutPreemptively(PATIENCE, engine::close);
        assertEquals(CancelReason.ENGINE_CLOSED, listener.awaitCancellation().reason());
        final WatchResponse last = pull.next(PATIENCE);
        assertTrue(last.cancellation() != null && last.cancellation().reason() == CancelReason.ENGINE_CLOSED, last.toString());
    }

    /** Gives the engine's threads time to run out of work and park; correctness never depends on it. */
    private static void settle()
    {
        try
        {
            Thread.sleep(20);
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
    }
}
