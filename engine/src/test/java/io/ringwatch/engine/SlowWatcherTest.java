package io.ringwatch.engine;

import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.WriteResult;
import io.ringwatch.engine.watch.CancelReason;
import io.ringwatch.engine.watch.EventBatch;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.WatchCancellation;
import io.ringwatch.engine.watch.WatchListener;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.engine.watch.Watcher;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A slow watcher costs its own cursor, not a cancel: beyond its shallow queue it reads the window by its own
 * cursor and rejoins with no gap and no duplicate, in memory, and is cancelled only when the window no longer
 * holds its next event, naming a revision it can resume from.
 */
class SlowWatcherTest
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
    void aWatcherPolledInFitsAndStartsGetsEveryEventOnceAcrossItsCursorAndItsQueue() throws Exception
    {
        final long seed = Long.getLong("ringwatch.seed", System.nanoTime());
        System.out.println("SlowWatcherTest seed=" + seed + " (rerun with -Dringwatch.seed=" + seed + ")");
        final Random random = new Random(seed);
        engine = RingWatch.open(RingWatchConfig.builder().watcherQueueDepth(8).windowCapacity(1 << 15, 1 << 15).build());
        final PullWatcher watcher = engine.watchPull(WatchRequest.of(KeyRange.prefix("a/")));
        final List<CompletableFuture<WriteResult>> underA = new ArrayList<>();
        final Thread writer = new Thread(() ->
        {
            for (int i = 0; i < 20_000; i++)
            {
                final boolean a = i % 3 != 0;
                final CompletableFuture<WriteResult> write = engine.writeAsync(Op.put((a ? "a/" : "b/") + (i % 97), "v" + i));
                if (a)
                {
                    underA.add(write);
                }
                if (i % 256 == 0)
                {
                    write.join();
                }
            }
        });
        writer.start();
        final Revisions seen = new Revisions();
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while ((writer.isAlive() || seen.count() < underA.size()) && seen.cancellation == null && System.nanoTime() < deadline)
        {
            watcher.poll(seen, 1 + random.nextInt(40));
            if (random.nextInt(50) == 0)
            {
                Thread.sleep(1);
            }
        }
        writer.join();
        assertNull(seen.cancellation);
        final List<Long> expected = new ArrayList<>();
        for (final CompletableFuture<WriteResult> write : underA)
        {
            expected.add(write.join().revision());
        }
        assertEquals(expected, seen.revisions);
    }

    @Test
    void resumingFromTheRevisionACancelNamesWorksWhenItsReplayExceedsTheQueue() throws Exception
    {
        engine = RingWatch.open(RingWatchConfig.builder().windowCapacity(4096, 4096).watcherQueueDepth(16).build());
        final PullWatcher lapped = engine.watchPull(WatchRequest.of(KeyRange.prefix("p/")));
        awaitAll(10_000, i -> Op.put("p/" + (i % 500), "v" + i));
        final WatchCancellation cancellation = drainUntilCancelled(lapped);
        assertEquals(CancelReason.REVISION_UNAVAILABLE, cancellation.reason());
        final long resumeAt = cancellation.compactRevision();
        assertTrue(resumeAt > 1, "names the oldest revision held: " + resumeAt);

        // The window holds 4,096 events from there: far more than the queue's 16.
        final PullWatcher resumed = engine.watchPull(WatchRequest.of(KeyRange.prefix("p/")).startRevision(resumeAt));
        final Revisions seen = new Revisions();
        final long expected = engine.currentRevision() - resumeAt + 1;
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (seen.revisions.size() < expected && seen.cancellation == null && System.nanoTime() < deadline)
        {
            resumed.poll(seen, 100);
        }
        assertNull(seen.cancellation);
        assertEquals(expected, seen.revisions.size());
        assertEquals(resumeAt, (long)seen.revisions.get(0));
        assertFalse(resumed.isCancelled());
    }

    @Test
    void manyPrevKvWatchersOfOnePrefixGetEveryEventOfABurstTheWindowHolds() throws Exception
    {
        final int watchers = 200;
        final int puts = 20_000;
        engine = RingWatch.open(RingWatchConfig.builder().windowCapacity(1 << 15, 1 << 15).deliveryThreads(2).build());
        final List<Revisions> listeners = new ArrayList<>();
        final List<Watcher> handles = new ArrayList<>();
        for (int i = 0; i < watchers; i++)
        {
            final Revisions listener = new Revisions();
            listeners.add(listener);
            handles.add(engine.watch(WatchRequest.of(KeyRange.prefix("burst/")).withPrevKv(), listener));
        }
        final List<Thread> writers = new ArrayList<>();
        for (int t = 0; t < 4; t++)
        {
            final int thread = t;
            writers.add(new Thread(() -> awaitAll(puts / 4, i -> Op.put("burst/" + thread + "/" + (i % 1000), "v" + i))));
        }
        writers.forEach(Thread::start);
        for (final Thread writer : writers)
        {
            writer.join();
        }
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        for (final Revisions listener : listeners)
        {
            while (listener.count() < puts && listener.cancellation == null && System.nanoTime() < deadline)
            {
                Thread.sleep(5);
            }
        }
        for (int i = 0; i < watchers; i++)
        {
            final Revisions listener = listeners.get(i);
            assertNull(listener.cancellation, "watcher " + i);
            assertEquals(puts, listener.count(), "watcher " + i);
            assertTrue(listener.inOrder, "watcher " + i + " in order without duplicates");
            assertFalse(handles.get(i).isCancelled());
        }
    }

    private void awaitAll(final int writes, final IntFunction<Op> op)
    {
        CompletableFuture<WriteResult> lastWrite = null;
        for (int i = 0; i < writes; i++)
        {
            lastWrite = engine.writeAsync(op.apply(i));
            if (i % 512 == 511)
            {
                lastWrite.join();
            }
        }
        lastWrite.join();
    }

    private static WatchCancellation drainUntilCancelled(final PullWatcher watcher) throws Exception
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline)
        {
            final var response = watcher.next(Duration.ofMillis(100));
            if (response.cancellation() != null)
            {
                return response.cancellation();
            }
        }
        throw new AssertionError("the lapped watcher was not cancelled");
    }

    /** Records the revisions handed over; one consumer at a time. */
    private static final class Revisions implements WatchListener
    {
        final List<Long> revisions = new ArrayList<>();
        volatile WatchCancellation cancellation;
        volatile boolean inOrder = true;
        private volatile int count;
        private long lastRevision;

        @Override
        public void onEvents(final EventBatch batch)
        {
            for (int i = 0; i < batch.size(); i++)
            {
                final long revision = batch.get(i).modRevision();
                if (revision <= lastRevision)
                {
                    inOrder = false;
                }
                lastRevision = revision;
                revisions.add(revision);
            }
            count = revisions.size();
        }

        @Override
        public void onCancelled(final WatchCancellation cancellation)
        {
            this.cancellation = cancellation;
        }

        int count()
        {
            return count;
        }
    }
}
