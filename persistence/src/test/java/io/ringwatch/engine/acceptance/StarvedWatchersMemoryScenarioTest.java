package io.ringwatch.engine.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.watch.CancelReason;
import io.ringwatch.engine.watch.EventBatch;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.WatchCancellation;
import io.ringwatch.engine.watch.WatchListener;
import io.ringwatch.engine.watch.WatchRequest;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Never-polled pull watchers and push listeners blocked for good, together, under a burst of
 * pipelined writes (1,000 and 100 beside 50,000 revisions; {@code -Dringwatch.long=true}: 10,000
 * and 1,000 beside 2,000,000): the writer never stalls (its acknowledgements go on), heap after GC
 * grows by at most the pending budget's 32 MiB plus 64 MiB, direct memory by at most 16 MiB (the
 * window has a fixed size, allocated at the open, so its growth is not counted), no watcher is
 * cancelled (no slow-listener cancel: its timeout is set beyond the test), and once released each
 * blocked listener and a sample of the pull watchers read every event in order with no gap or
 * duplicate; in memory, where the window moves on without them, they may end
 * {@code REVISION_UNAVAILABLE} instead, starved or released, as the README promises.
 */
class StarvedWatchersMemoryScenarioTest
{
    private static final int PULL = Scenario.LONG ? 10_000 : 1_000;
    private static final int BLOCKED = Scenario.LONG ? 1_000 : 100;
    private static final int WRITES = Scenario.LONG ? 2_000_000 : 50_000;
    private static final long HEAP_BOUND = (32L << 20) + (64L << 20);
    private static final long DIRECT_BOUND = 16L << 20;

    @ParameterizedTest
    @EnumSource(value = Scenario.Mode.class, names = {"MEMORY", "ASYNC"})
    void starvedWatchersStayBoundedAndTheWriterNeverStalls(final Scenario.Mode mode, @TempDir final Path dir) throws Exception
    {
        final CountDownLatch release = new CountDownLatch(1);
        try (RingWatch engine = RingWatch.open(mode.builder(dir).windowCapacity(1 << 15, 1 << 15)
            .slowListenerTimeout(Duration.ofMinutes(30)).build()))
        {
            try
            {
                run(mode, engine, release);
            }
            finally
            {
                // Before the close, which waits for the listeners.
                release.countDown();
            }
        }
    }

    private static void run(final Scenario.Mode mode, final RingWatch engine, final CountDownLatch release)
        throws InterruptedException
    {
        final long heapBefore = Scenario.heapAfterGc();
        final long directBefore = direct();
        final List<PullWatcher> pulls = new ArrayList<>(PULL);
        for (int i = 0; i < PULL; i++)
        {
            pulls.add(engine.watchPull(WatchRequest.of(KeyRange.prefix("/s/"))));
        }
        final List<Blocked> blocked = new ArrayList<>(BLOCKED);
        for (int i = 0; i < BLOCKED; i++)
        {
            final Blocked listener = new Blocked(release);
            blocked.add(listener);
            engine.watch(WatchRequest.of(KeyRange.prefix("/s/")), listener);
        }
        final AtomicLong acked = new AtomicLong();
        final AtomicReference<Throwable> failed = new AtomicReference<>();
        final Thread writer = new Thread(() ->
        {
            final Semaphore inFlight = new Semaphore(256);
            final byte[] value = new byte[64];
            for (int i = 0; i < WRITES && failed.get() == null; i++)
            {
                inFlight.acquireUninterruptibly();
                engine.writeAsync(Op.put(("/s/" + i % 10_000).getBytes(), value)).whenComplete((r, t) ->
                {
                    // Counted before the permit goes back: the burst ends once every permit is back.
                    if (t != null)
                    {
                        failed.compareAndSet(null, t);
                    }
                    else
                    {
                        acked.incrementAndGet();
                    }
                    inFlight.release();
                });
            }
            inFlight.acquireUninterruptibly(256);
        }, "burst");
        writer.start();
        // The writer never stalls: its acknowledgements move within every patience interval.
        long last = -1;
        while (writer.isAlive())
        {
            final long seen = acked.get();
            final long previous = last;
            if (seen == previous)
            {
                Scenario.await(() -> acked.get() != previous || !writer.isAlive(),
                    () -> "the writer stalled at " + previous + " acknowledgements of " + WRITES);
            }
            last = seen;
            writer.join(100);
        }
        assertNull(failed.get(), "a write failed");
        assertEquals(WRITES, acked.get());
        final long heapGrown = Scenario.heapAfterGc() - heapBefore;
        final long directGrown = direct() - directBefore;
        System.out.printf("StarvedWatchersMemoryScenarioTest %s: %d never-polled, %d blocked, %d writes: heap +%,d B, direct +%,d B%n",
            mode, PULL, BLOCKED, WRITES, heapGrown, directGrown);
        assertTrue(heapGrown < HEAP_BOUND, "heap grew " + heapGrown + " bytes");
        assertTrue(directGrown < DIRECT_BOUND, "direct memory grew " + directGrown + " bytes");
        for (int i = 0; i < PULL; i++)
        {
            checkEnd(mode, pulls.get(i).cancellation(), "never-polled watcher " + i + ", while starved");
        }
        for (int i = 0; i < BLOCKED; i++)
        {
            checkEnd(mode, blocked.get(i).cancellation.get(), "blocked listener " + i + ", while blocked");
        }

        release.countDown();
        final long end = engine.currentRevision();
        for (int i = 0; i < BLOCKED; i++)
        {
            final Blocked listener = blocked.get(i);
            final int index = i;
            Scenario.await(() -> listener.last.get() == end || listener.cancellation.get() != null,
                () -> "blocked listener " + index + " to read up to " + end + ": at " + listener.last.get());
            assertNull(listener.failure.get(), "blocked listener " + i);
            checkEnd(mode, listener.cancellation.get(), "blocked listener " + i);
        }
        for (int i = 0; i < PULL; i += PULL / 10)
        {
            final Blocked drain = new Blocked(release);
            final PullWatcher pull = pulls.get(i);
            Scenario.await(() -> pull.poll(drain, 4096) == 0 && (drain.last.get() == end || pull.cancellation() != null),
                "pull watcher to read up to " + end);
            assertNull(drain.failure.get(), "pull watcher " + i);
            checkEnd(mode, pull.cancellation(), "pull watcher " + i);
        }
    }

    private static void checkEnd(final Scenario.Mode mode, final WatchCancellation cancellation, final String who)
    {
        if (cancellation != null)
        {
            assertEquals(Scenario.Mode.MEMORY, mode, who + " cancelled in a persistent engine: " + cancellation);
            assertEquals(CancelReason.REVISION_UNAVAILABLE, cancellation.reason(), who + ": " + cancellation);
        }
    }

    private static long direct()
    {
        long used = 0;
        for (final BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class))
        {
            if (pool.getName().equals("direct"))
            {
                used += pool.getMemoryUsed();
            }
        }
        return used;
    }

    /** Blocks its first call until released, then checks revisions come one after another. */
    private static final class Blocked implements WatchListener
    {
        private final CountDownLatch release;
        final AtomicLong last = new AtomicLong();
        final AtomicReference<String> failure = new AtomicReference<>();
        final AtomicReference<WatchCancellation> cancellation = new AtomicReference<>();

        Blocked(final CountDownLatch release)
        {
            this.release = release;
        }

        @Override
        public void onEvents(final EventBatch events)
        {
            try
            {
                release.await();
            }
            catch (final InterruptedException e)
            {
                Thread.currentThread().interrupt();
            }
            for (int i = 0; i < events.size(); i++)
            {
                final long revision = events.get(i).revision();
                final long previous = last.get();
                if (previous != 0 && revision != previous + 1)
                {
                    failure.compareAndSet(null, "revision " + revision + " after " + previous);
                }
                last.set(revision);
            }
        }

        @Override
        public void onCancelled(final WatchCancellation cancellation)
        {
            this.cancellation.set(cancellation);
        }
    }
}
