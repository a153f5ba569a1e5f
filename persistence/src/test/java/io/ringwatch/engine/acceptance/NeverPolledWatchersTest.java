package io.ringwatch.engine.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.watch.EventBatch;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.WatchCancellation;
import io.ringwatch.engine.watch.WatchListener;
import io.ringwatch.engine.watch.WatchRequest;

import org.junit.jupiter.api.Test;

/**
 * Issue 11, "What was seen" item 2: never-polled pull watchers each kept up to 65,536 queue
 * entries with no engine-wide bound (OutOfMemoryError at 10,000 of them, all cancelled
 * OVERFLOWED at 1,000, and about 1 GB still reachable after the cancel). Memory is measured as
 * heap in use after full GCs, with generous margins; the handles stay referenced by the test, as a
 * user's code would keep them.
 */
class NeverPolledWatchersTest
{
    private static final int WATCHERS = Scenario.LONG ? 10_000 : 2_000;
    private static final int WRITES = Scenario.LONG ? 30_000 : 10_000;
    private static final int BUDGET_ENTRIES = 65_536;
    private static final long MARGIN = 64L << 20;

    /**
     * Issue 11 item 2: 2,000 never-polled pull watchers on one prefix with a small pending budget
     * under sustained writes: no OutOfMemoryError, none cancelled (OVERFLOWED or otherwise), heap
     * growth within the budget plus a generous margin; a sample of them, polled afterwards, reads
     * every event in order; close() succeeds.
     */
    @Test
    void neverPolledWatchersStayWithinTheBudgetAndAreNeverCancelled()
    {
        final RingWatch engine = RingWatch.open(RingWatchConfig.builder().windowCapacity(1 << 15, 1 << 15)
            .pendingBudget(BUDGET_ENTRIES).build());
        try
        {
            final List<PullWatcher> watchers = new ArrayList<>(WATCHERS);
            for (int i = 0; i < WATCHERS; i++)
            {
                watchers.add(engine.watchPull(WatchRequest.of(KeyRange.prefix("/m/"))));
            }
            final long before = Scenario.heapAfterGc();
            final byte[] value = new byte[100];
            for (int i = 0; i < WRITES; i++)
            {
                engine.put(String.format("/m/%06d", i % 5_000).getBytes(), value);
            }
            Scenario.await(() -> engine.waitForRevision(WRITES, Scenario.PATIENCE), "the writes");
            final long after = Scenario.heapAfterGc();
            final long grown = after - before;
            System.out.printf("NeverPolledWatchersTest: %d never-polled watchers, %d writes: heap grew %,d bytes%n",
                WATCHERS, WRITES, grown);
            for (int i = 0; i < WATCHERS; i++)
            {
                assertNull(watchers.get(i).cancellation(), "never-polled watcher " + i + " was cancelled");
            }
            assertTrue(grown < BUDGET_ENTRIES * 16L + MARGIN, "heap grew " + grown + " bytes for " + WATCHERS
                + " never-polled watchers (budget " + BUDGET_ENTRIES + " entries)");

            for (int i = 0; i < WATCHERS; i += WATCHERS / 20)
            {
                final Drain drain = new Drain();
                final PullWatcher watcher = watchers.get(i);
                Scenario.await(() -> watcher.poll(drain, 4096) == 0 && drain.received >= WRITES || drain.failure != null,
                    "watcher " + i + " to read all " + WRITES + " events (read " + drain.received + ")");
                assertNull(drain.failure, "watcher " + i);
                assertEquals(WRITES, drain.received, "watcher " + i);
            }
        }
        finally
        {
            engine.close();
        }
    }

    /**
     * Issue 11 item 2, the cancel: watchers whose queues really hold many entries (deep queues,
     * a large budget) are cancelled without ever being drained, while the user still holds their
     * handles; their memory must be released at once (measured after GC), and close() succeeds.
     */
    @Test
    void aCancelReleasesANeverPolledWatchersMemory()
    {
        final int watchers = 500;
        final int writes = 20_000;
        final RingWatch engine = RingWatch.open(RingWatchConfig.builder().windowCapacity(1 << 15, 1 << 15)
            .watcherQueueDepth(1 << 16).pendingBudget(1 << 26).build());
        try
        {
            final List<PullWatcher> handles = new ArrayList<>(watchers);
            for (int i = 0; i < watchers; i++)
            {
                handles.add(engine.watchPull(WatchRequest.of(KeyRange.prefix("/c/"))));
            }
            final long before = Scenario.heapAfterGc();
            final byte[] value = new byte[16];
            for (int i = 0; i < writes; i++)
            {
                engine.put(String.format("/c/%06d", i % 1_000).getBytes(), value);
            }
            Scenario.await(() -> engine.waitForRevision(writes, Scenario.PATIENCE), "the writes");
            final long full = Scenario.heapAfterGc() - before;
            for (final PullWatcher handle : handles)
            {
                handle.cancel();
            }
            final long afterCancel = Scenario.heapAfterGc() - before;
            System.out.printf("NeverPolledWatchersTest: %d watchers x %d events held %,d bytes; after cancel %,d bytes%n",
                watchers, writes, full, afterCancel);
            assertTrue(afterCancel < 16L << 20, "after cancelling " + watchers + " never-polled watchers " + afterCancel
                + " bytes stayed reachable (" + full + " before the cancel)");
            for (final PullWatcher handle : handles)
            {
                assertTrue(handle.isCancelled());
            }
        }
        finally
        {
            engine.close();
        }
    }

    /** Counts what a poll hands over and checks that revisions only go up. */
    private static final class Drain implements WatchListener
    {
        int received;
        long lastRevision;
        String failure;

        @Override
        public void onEvents(final EventBatch events)
        {
            for (int i = 0; i < events.size(); i++)
            {
                final long revision = events.get(i).revision();
                if (revision != lastRevision + 1 && failure == null)
                {
                    failure = "revision " + revision + " after " + lastRevision + " (a gap or a duplicate)";
                }
                lastRevision = revision;
                received++;
            }
        }

        @Override
        public void onCancelled(final WatchCancellation cancellation)
        {
            failure = "cancelled: " + cancellation;
        }
    }
}
