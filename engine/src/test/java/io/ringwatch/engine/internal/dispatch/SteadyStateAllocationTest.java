package io.ringwatch.engine.internal.dispatch;

import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.watch.WatchRequest;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.util.function.LongConsumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Routing, the pending queue and a watcher's overflow allocate nothing per operation once warm, measured with the JVM's
 * per-thread allocation counter (bytes, not time).
 */
class SteadyStateAllocationTest
{
    private static final int OPERATIONS = 100_000;
    // Far below one object per operation (at least 16 bytes each), yet room for the counter's own noise.
    private static final long ALLOWED_BYTES = 4096;

    private static final class CountingVisitor implements RouteVisitor<Integer>, LongConsumer
    {
        long count;

        @Override
        public void onMatch(final Integer watcher)
        {
            count += watcher;
        }

        @Override
        public void accept(final long value)
        {
            count += value;
        }
    }

    @Test
    void routingAllocatesNothingPerCall()
    {
        final com.sun.management.ThreadMXBean threads = allocationCounter();
        final WatchRoutes<Integer> routes = new WatchRoutes<>();
        for (int i = 0; i < 1000; i++)
        {
            routes.addKey(WatchRoutesTest.utf8("key/" + i), i);
            routes.addRange(WatchRoutesTest.utf8("key/" + i), WatchRoutesTest.utf8("key/" + i + "5"), i);
        }
        routes.addAll(1);
        final UnsafeBuffer key = new UnsafeBuffer(WatchRoutesTest.utf8("key/42"));
        final CountingVisitor visitor = new CountingVisitor();

        routeMany(routes, key, visitor);
        final long before = threads.getCurrentThreadAllocatedBytes();
        routeMany(routes, key, visitor);
        final long allocated = threads.getCurrentThreadAllocatedBytes() - before;

        assertTrue(allocated < ALLOWED_BYTES, "allocated " + allocated + " bytes over " + OPERATIONS + " routes");
        assertTrue(visitor.count > 0);
    }

    @Test
    void offerPollAndDrainAllocateNothingOnceGrown()
    {
        final com.sun.management.ThreadMXBean threads = allocationCounter();
        final PendingQueue queue = new PendingQueue(2, 64);
        final CountingVisitor handler = new CountingVisitor();

        cycle(queue, handler);
        final long before = threads.getCurrentThreadAllocatedBytes();
        cycle(queue, handler);
        final long allocated = threads.getCurrentThreadAllocatedBytes() - before;

        assertTrue(allocated < ALLOWED_BYTES, "allocated " + allocated + " bytes over " + OPERATIONS + " cycles");
        assertEquals(0, queue.size());
    }

    @Test
    void aWatcherThatKeepsOverflowingGetsItsQueueBackWithoutAllocating()
    {
        final com.sun.management.ThreadMXBean threads = allocationCounter();
        final PendingBudget budget = new PendingBudget(1024, 1 << 20);
        final WatcherState watcher = new PullWatcherState(1, WatchRequest.of(KeyRange.all()), 1, null, null);

        overflowAndRelease(budget, watcher, 10);
        final long before = threads.getCurrentThreadAllocatedBytes();
        overflowAndRelease(budget, watcher, 100);
        final long allocated = threads.getCurrentThreadAllocatedBytes() - before;

        // A new queue each time would take over 16 KB per overflow (arrays of 8 to 1,024 longs).
        assertTrue(allocated < ALLOWED_BYTES, "allocated " + allocated + " bytes over 100 overflows");
    }

    /** What the dispatcher does to a watcher that overflows its queue and rejoins, {@code times} times. */
    private static void overflowAndRelease(final PendingBudget budget, final WatcherState watcher, final int times)
    {
        for (int cycle = 0; cycle < times; cycle++)
        {
            long entry = 0;
            while (budget.offer(watcher, entry, cycle))
            {
                entry++;
            }
            assertEquals(1024, entry);
            budget.release(watcher);
        }
    }

    private static void routeMany(final WatchRoutes<Integer> routes, final UnsafeBuffer key, final CountingVisitor visitor)
    {
        for (int i = 0; i < OPERATIONS; i++)
        {
            routes.route(key, 0, key.capacity(), visitor);
        }
    }

    private static void cycle(final PendingQueue queue, final CountingVisitor handler)
    {
        for (int i = 0; i < OPERATIONS; i++)
        {
            for (long v = 0; v < 40; v++)
            {
                queue.offer(v);
            }
            queue.poll();
            queue.peek();
            queue.drain(handler, 40);
        }
    }

    private static com.sun.management.ThreadMXBean allocationCounter()
    {
        final java.lang.management.ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        assumeTrue(threads instanceof com.sun.management.ThreadMXBean, "no per-thread allocation counter");
        final com.sun.management.ThreadMXBean counter = (com.sun.management.ThreadMXBean)threads;
        assumeTrue(counter.isThreadAllocatedMemorySupported() && counter.isThreadAllocatedMemoryEnabled());
        return counter;
    }
}
