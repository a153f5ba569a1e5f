package io.ringwatch.jmh.fanout;

import io.ringwatch.baseline.LockedWatchStore;
import io.ringwatch.baseline.Routing;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The baseline counterpart of {@link WatchedEngine}: the locked j.u.c. store ({@link LockedWatchStore},
 * shared with the load harness, with the naive router that tests every watcher) with every key of
 * {@link FanOutWorkload} already written, {@code matchingWatchers} watchers of the written prefix and
 * {@code nonMatchingWatchers} watchers of single keys never written, drained by
 * {@value #POOL_THREADS} pool threads (as many as the engine's watch-side threads by default: one
 * dispatcher, one delivery thread). {@link #put()} writes the next key behind the same
 * {@link InFlightGate}, so both contenders are measured by writes delivered end to end.
 * <p>
 * The producer (JMH worker) thread alone uses an instance. Construction allocates the store and its
 * watchers; each put allocates what {@link LockedWatchStore#put} does and a queue node per matching
 * watcher.
 */
final class WatchedLockedStore implements AutoCloseable
{
    /** Drain threads of the baseline as the other benchmarks run it: as many as the engine's two threads. */
    static final int DEFAULT_POOL_THREADS = 2;

    private final LockedWatchStore store = new LockedWatchStore(Routing.LINEAR_SCAN);
    private final ExecutorService pool;
    private final FanOutWorkload workload = new FanOutWorkload();
    private final DeliveryTally matchingTally = new DeliveryTally();
    private final DeliveryTally idleTally = new DeliveryTally();
    private final QueueWatcher[] matching;
    private final QueueWatcher[] idle;
    private final InFlightGate gate;
    private final long firstWatchedRevision;

    /**
     * Writes every key once, then registers the watchers. JMH worker thread; allocates everything.
     *
     * @param poolThreads         threads draining the watchers' queues; at least 1.
     * @param matchingWatchers    watchers of every written key; at least 1.
     * @param nonMatchingWatchers watchers of keys never written; not negative.
     * @throws IllegalArgumentException for a bad watcher or thread count.
     * @throws InterruptedException     never in practice: the watchers' queues are unbounded.
     */
    WatchedLockedStore(final int poolThreads, final int matchingWatchers, final int nonMatchingWatchers)
        throws InterruptedException
    {
        if (poolThreads < 1 || matchingWatchers < 1 || nonMatchingWatchers < 0)
        {
            throw new IllegalArgumentException("need a drain thread, a matching watcher and no negative count of other watchers: " +
                poolThreads + ", " + matchingWatchers + ", " + nonMatchingWatchers);
        }
        pool = Executors.newFixedThreadPool(poolThreads, task ->
        {
            final Thread thread = new Thread(task, "locked-fan-out-drainer");
            thread.setDaemon(true);
            return thread;
        });
        gate = new InFlightGate(matchingTally, matchingWatchers);
        for (int i = 0; i < FanOutWorkload.KEY_COUNT; i++)
        {
            store.put(workload.key(workload.next()), workload.value());
        }
        firstWatchedRevision = store.currentRevision() + 1;
        matching = new QueueWatcher[matchingWatchers];
        idle = new QueueWatcher[nonMatchingWatchers];
        final byte[] writtenPrefix = FanOutWorkload.writtenPrefix();
        for (int i = 0; i < matchingWatchers; i++)
        {
            matching[i] = new QueueWatcher(pool, matchingTally);
            store.watchPrefix(writtenPrefix, matching[i]);
        }
        for (int i = 0; i < nonMatchingWatchers; i++)
        {
            idle[i] = new QueueWatcher(pool, idleTally);
            store.watchKey(FanOutWorkload.numberedKey(FanOutWorkload.IDLE_PREFIX, i), idle[i]);
        }
    }

    /**
     * Waits for room under the in-flight limit, then puts the next key; the put returns once its event
     * is queued to every matching watcher. Producer thread.
     *
     * @return the deliveries to the matching watchers counted before this put.
     * @throws InterruptedException never in practice: the watchers' queues are unbounded.
     */
    long put() throws InterruptedException
    {
        final long delivered = gate.admit();
        store.put(workload.key(workload.next()), workload.value());
        return delivered;
    }

    /**
     * Waits until every put was delivered, then checks that each matching watcher received exactly one
     * event per put and no other watcher received anything. Producer thread.
     *
     * @throws IllegalStateException naming the first thing that is wrong.
     */
    void verifyDelivered()
    {
        gate.awaitAllDelivered();
        final long expected = store.currentRevision() - firstWatchedRevision + 1;
        for (int i = 0; i < matching.length; i++)
        {
            if (matching[i].delivered() != expected)
            {
                throw new IllegalStateException("matching watcher " + i + " received " + matching[i].delivered() +
                    " of " + expected + " events");
            }
        }
        if (idleTally.total() != 0)
        {
            throw new IllegalStateException("non-matching watchers received " + idleTally.total() + " events");
        }
    }

    /**
     * Stops the store's pool. Any thread.
     */
    @Override
    public void close()
    {
        pool.shutdownNow();
    }
}
