package io.ringwatch.engine.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.watch.CancelReason;
import io.ringwatch.engine.watch.Event;
import io.ringwatch.engine.watch.EventBatch;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.WatchCancellation;
import io.ringwatch.engine.watch.WatchEvent;
import io.ringwatch.engine.watch.WatchListener;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.engine.watch.Watcher;

import org.junit.jupiter.api.Test;

/**
 * Issue 11, "What was seen" items 3 and 4: in memory, a client that follows the revision a
 * REVISION_UNAVAILABLE or LAPPED cancel names must be able to resume from it (the old code
 * cancelled the resumed watch OVERFLOWED at once because the window's replay was deeper than a
 * watcher's queue, so the client looped for ever), and prevKv watchers under a burst the window
 * holds must get every event (the old code cancelled all 800 OVERFLOWED while the window still
 * held their next events). Each watcher's queue is made shallower than the window so that the old
 * failure shows at test scale.
 */
class ResumeFromCancelTest
{
    private static final int WINDOW = 1 << 15;
    private static final int QUEUE_DEPTH = 4_096;

    private static RingWatchConfig.Builder shallowQueues()
    {
        return RingWatchConfig.builder().windowCapacity(WINDOW, WINDOW).watcherQueueDepth(QUEUE_DEPTH);
    }

    /**
     * Issue 11 item 3: a prefix watch from revision 1 after the window has moved on is cancelled
     * REVISION_UNAVAILABLE (or COMPACTED) naming a revision; a watch from exactly that revision,
     * with writes going on right after it (as a busy engine has), is not cancelled and delivers the
     * exact sequence from there, then live events.
     *
     * <p>Found failing on main 48794c3 (4 runs of 4 on the loaded 2-core VM): the resumed watch
     * was cancelled REVISION_UNAVAILABLE ("revision 8001 is older than the oldest revision held",
     * naming 8067), because the next writes overwrote the oldest slots before its cursor opened.
     * Fixed on main by 2b210b1 (the cancel names a revision a quarter of the window past the
     * oldest held). {@link #resumingFromTheNamedRevisionDeliversTheExactSequenceWhenNoWriteRacesIt}
     * is the same resume without the race.
     */
    @Test
    void resumingFromTheRevisionAnUnavailableCancelNamesDeliversTheExactSequence()
    {
        try (RingWatch engine = RingWatch.open(shallowQueues().build()))
        {
            final int writes = WINDOW + 8_000;
            writeKeys(engine, 1, writes);
            final Recorder old = new Recorder();
            engine.watch(WatchRequest.of(KeyRange.prefix("/r/")).startRevision(1), old);
            final WatchCancellation cancelled = old.awaitCancellation();
            assertTrue(cancelled.reason() == CancelReason.REVISION_UNAVAILABLE || cancelled.reason() == CancelReason.COMPACTED,
                "a watch from revision 1 after the window moved on: " + cancelled);
            final long resume = cancelled.compactRevision();
            assertTrue(resume > 1 && resume <= writes, "the cancel names no usable revision: " + cancelled);

            final Recorder resumed = new Recorder();
            engine.watch(WatchRequest.of(KeyRange.prefix("/r/")).startRevision(resume), resumed);
            writeKeys(engine, writes + 1, writes + 1_000);
            final long last = writes + 1_000;
            resumed.awaitRevision(last);
            assertNull(resumed.cancellation(), "the watch resumed from " + resume + " was cancelled");
            assertExactSequence(resumed.events(), resume, last);
        }
    }

    /**
     * Issue 11 item 3, without the race of the test above: the watch resumed from the revision the
     * cancel names reads the window up to the last write before any further write, then gets the
     * live events; every event is exact and it is never cancelled.
     */
    @Test
    void resumingFromTheNamedRevisionDeliversTheExactSequenceWhenNoWriteRacesIt()
    {
        try (RingWatch engine = RingWatch.open(shallowQueues().build()))
        {
            final int writes = WINDOW + 8_000;
            writeKeys(engine, 1, writes);
            final Recorder old = new Recorder();
            engine.watch(WatchRequest.of(KeyRange.prefix("/r/")).startRevision(1), old);
            final WatchCancellation cancelled = old.awaitCancellation();
            final long resume = cancelled.compactRevision();
            assertTrue(resume > 1 && resume <= writes, "the cancel names no usable revision: " + cancelled);

            final Recorder resumed = new Recorder();
            engine.watch(WatchRequest.of(KeyRange.prefix("/r/")).startRevision(resume), resumed);
            resumed.awaitRevision(writes);
            assertNull(resumed.cancellation(), "the watch resumed from " + resume + " was cancelled");
            writeKeys(engine, writes + 1, writes + 1_000);
            final long last = writes + 1_000;
            resumed.awaitRevision(last);
            assertNull(resumed.cancellation(), "the watch resumed from " + resume + " was cancelled");
            assertExactSequence(resumed.events(), resume, last);
        }
    }

    /**
     * Issue 11 item 3, the lapped reader: a pull watcher never polled while the window wraps is
     * cancelled LAPPED or REVISION_UNAVAILABLE (never OVERFLOWED) naming a revision; what it read
     * before the cancel and what a watch from the named revision reads join with no duplicate,
     * and everything from the named revision on is exact.
     */
    @Test
    void aLappedPullWatcherResumesFromTheRevisionItsCancelNames()
    {
        try (RingWatch engine = RingWatch.open(shallowQueues().build()))
        {
            final PullWatcher slow = engine.watchPull(WatchRequest.of(KeyRange.prefix("/r/")));
            final int writes = 2 * WINDOW;
            writeKeys(engine, 1, writes);
            final Recorder before = new Recorder();
            Scenario.await(() -> slow.poll(before, 1024) == 0 && before.cancellation() != null, "the slow watcher's cancel");
            final WatchCancellation cancelled = before.cancellation();
            assertTrue(cancelled.reason() == CancelReason.LAPPED || cancelled.reason() == CancelReason.REVISION_UNAVAILABLE
                || cancelled.reason() == CancelReason.COMPACTED, "a lapped pull watcher must not be cancelled " + cancelled);
            final long resume = cancelled.compactRevision();
            final List<Event> read = before.events();
            final long lastRead = read.isEmpty() ? 0 : read.get(read.size() - 1).revision();
            assertTrue(resume > lastRead, "the cancel names " + resume + " but the watcher already read up to " + lastRead);
            assertExactSequence(read, 1, lastRead);

            final Recorder resumed = new Recorder();
            engine.watch(WatchRequest.of(KeyRange.prefix("/r/")).startRevision(resume), resumed);
            resumed.awaitRevision(writes);
            assertNull(resumed.cancellation(), "the watch resumed from " + resume + " was cancelled");
            assertExactSequence(resumed.events(), resume, writes);
        }
    }

    /**
     * Issue 11 item 4: 800 prevKv watchers on one prefix, a burst of puts from 4 threads that the
     * window holds: every watcher gets every event with its exact prevKv, or a LAPPED cancel naming
     * a revision it can resume from (then the resumed watch delivers the rest exactly).
     */
    @Test
    void eightHundredPrevKvWatchersGetEveryEventOfABurstTheWindowHolds() throws Exception
    {
        final int watchers = 800;
        final int perThread = Scenario.LONG ? 50_000 : 5_000;
        final int writes = 4 * perThread;
        final int window = Integer.highestOneBit(writes) << 1;
        try (RingWatch engine = RingWatch.open(RingWatchConfig.builder().windowCapacity(window, window)
            .watcherQueueDepth(QUEUE_DEPTH).build()))
        {
            final WatchRequest request = WatchRequest.of(KeyRange.prefix("/w/")).withPrevKv();
            final List<Counter> counters = new ArrayList<>();
            for (int i = 0; i < watchers; i++)
            {
                final Counter counter = new Counter(i < 8);
                counters.add(counter);
                engine.watch(request, counter);
            }
            final CountDownLatch start = new CountDownLatch(1);
            final List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 4; t++)
            {
                final int thread = t;
                threads.add(new Thread(() ->
                {
                    try
                    {
                        start.await();
                    }
                    catch (final InterruptedException e)
                    {
                        return;
                    }
                    for (int i = 0; i < perThread; i++)
                    {
                        engine.put("/w/" + thread + "/" + (i % 500), thread + "-" + i);
                    }
                }, "burst-" + t));
            }
            threads.forEach(Thread::start);
            start.countDown();
            for (final Thread thread : threads)
            {
                thread.join();
            }
            final long last = engine.currentRevision();
            assertEquals(writes, last);
            Scenario.await(() -> counters.stream().allMatch(c -> c.lastRevision() >= last || c.cancellation() != null),
                "every watcher to reach revision " + last + " or be cancelled");
            int lapped = 0;
            for (int i = 0; i < watchers; i++)
            {
                final Counter counter = counters.get(i);
                assertNull(counter.failure, "watcher " + i);
                final WatchCancellation cancelled = counter.cancellation();
                if (cancelled == null)
                {
                    assertEquals(writes, counter.received, "watcher " + i);
                    continue;
                }
                lapped++;
                assertTrue(cancelled.reason() == CancelReason.LAPPED || cancelled.reason() == CancelReason.REVISION_UNAVAILABLE,
                    "watcher " + i + " after " + counter.received + " events: " + cancelled);
                assertTrue(cancelled.compactRevision() > counter.lastRevision(), "watcher " + i + ": " + cancelled);
                final Recorder resumed = new Recorder();
                engine.watch(WatchRequest.of(KeyRange.prefix("/w/")).startRevision(cancelled.compactRevision()).withPrevKv(),
                    resumed);
                resumed.awaitRevision(last);
                assertNull(resumed.cancellation(), "watcher " + i + " resumed from " + cancelled.compactRevision());
                assertEquals(last - cancelled.compactRevision() + 1, resumed.events().size());
            }
            System.out.println("ResumeFromCancelTest: " + lapped + " of " + watchers + " prevKv watchers were lapped and resumed");
        }
    }

    private static void writeKeys(final RingWatch engine, final int fromRevision, final int toRevision)
    {
        for (int n = fromRevision; n <= toRevision; n++)
        {
            final long revision = engine.put(key(n), "v" + n).revision();
            if (revision != n)
            {
                fail("put " + n + " got revision " + revision);
            }
        }
    }

    private static String key(final long revision)
    {
        return String.format("/r/%04d", revision % 1_000);
    }

    /** The reference: revision n put key(n) = "v" + n, one event per revision. */
    private static void assertExactSequence(final List<Event> events, final long from, final long to)
    {
        assertEquals(to - from + 1, events.size(), "events from " + from + " to " + to);
        for (int i = 0; i < events.size(); i++)
        {
            final Event event = events.get(i);
            final long revision = from + i;
            assertEquals(revision, event.revision(), "event " + i);
            assertEquals(key(revision), event.kv().keyAsString(), "event " + i);
            assertEquals("v" + revision, event.kv().valueAsString(), "event " + i);
        }
    }

    /** Keeps copies of the events and the cancellation. */
    static final class Recorder implements WatchListener
    {
        private final List<Event> events = new ArrayList<>();
        private WatchCancellation cancellation;
        private long lastRevision;

        @Override
        public synchronized void onEvents(final EventBatch batch)
        {
            for (int i = 0; i < batch.size(); i++)
            {
                events.add(batch.get(i).toEvent());
                lastRevision = batch.get(i).revision();
            }
        }

        @Override
        public synchronized void onCancelled(final WatchCancellation cancellation)
        {
            this.cancellation = cancellation;
        }

        synchronized List<Event> events()
        {
            return new ArrayList<>(events);
        }

        synchronized WatchCancellation cancellation()
        {
            return cancellation;
        }

        synchronized long lastRevision()
        {
            return lastRevision;
        }

        WatchCancellation awaitCancellation()
        {
            Scenario.await(() -> cancellation() != null, "a cancellation");
            return cancellation();
        }

        void awaitRevision(final long revision)
        {
            Scenario.await(() -> lastRevision() >= revision || cancellation() != null,
                "revision " + revision + " (at " + lastRevision() + ")");
        }
    }

    /** Counts events, checks they are consecutive revisions, and (when asked) checks each prevKv. */
    private static final class Counter implements WatchListener
    {
        private final Map<String, String> latest;
        private volatile long lastRevision;
        private volatile WatchCancellation cancellation;
        int received;
        String failure;

        Counter(final boolean checkPrevKv)
        {
            latest = checkPrevKv ? new HashMap<>() : null;
        }

        @Override
        public void onEvents(final EventBatch batch)
        {
            for (int i = 0; i < batch.size(); i++)
            {
                final WatchEvent event = batch.get(i);
                if (event.revision() != lastRevision + 1 && failure == null)
                {
                    failure = "revision " + event.revision() + " after " + lastRevision;
                }
                if (latest != null)
                {
                    final Event copy = event.toEvent();
                    final String previous = latest.put(copy.kv().keyAsString(), copy.kv().valueAsString());
                    final String prevKv = copy.prevKv() == null ? null : copy.prevKv().valueAsString();
                    if (failure == null && !java.util.Objects.equals(previous, prevKv))
                    {
                        failure = "prevKv of " + copy + " is " + prevKv + ", expected " + previous;
                    }
                }
                received++;
                lastRevision = event.revision();
            }
        }

        @Override
        public void onCancelled(final WatchCancellation cancellation)
        {
            this.cancellation = cancellation;
        }

        long lastRevision()
        {
            return lastRevision;
        }

        WatchCancellation cancellation()
        {
            return cancellation;
        }
    }
}
