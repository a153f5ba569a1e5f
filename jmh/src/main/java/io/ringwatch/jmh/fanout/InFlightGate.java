package io.ringwatch.jmh.fanout;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

/**
 * Bounds the writes in flight end to end: a write is in flight from the moment the producer admits it
 * until every watcher it matches has been handed its event. Without the bound an asynchronous producer
 * would outrun the watchers until the window lapped them (the engine) or the queues filled the heap (the
 * baseline), and the benchmark would measure that instead of delivery. A write counts as delivered once
 * {@code watchersPerWrite} deliveries more have been counted, which is exact when every watcher receives
 * every write and the deliveries spread evenly, as they do with round-robin delivery threads.
 * <p>
 * The limit keeps at most about {@value #QUEUED_EVENTS_BUDGET} undelivered events queued in all (so
 * 100000 watchers get only a few writes in flight) and never fewer than {@value #MIN_IN_FLIGHT} writes,
 * which keeps the pipeline busy. The same gate and idle strategy serve every contender.
 * <p>
 * The producer thread alone calls {@link #admit()} and {@link #awaitAllDelivered()}. Waiting allocates
 * nothing; a wait that exceeds {@value #STALL_LIMIT_SECONDS} s throws, a safety net against a broken
 * watch path, not a measurement.
 */
final class InFlightGate
{
    private static final long QUEUED_EVENTS_BUDGET = 1 << 20;
    private static final long MIN_IN_FLIGHT = 8;
    private static final long MAX_IN_FLIGHT = 1024;
    private static final long STALL_LIMIT_SECONDS = 30;
    private static final long STALL_LIMIT_NANOS = STALL_LIMIT_SECONDS * 1_000_000_000L;

    private final DeliveryTally tally;
    private final long watchersPerWrite;
    private final long limit;
    // Spin briefly, then yield, then park: on two shared cores a spinning producer would starve the
    // threads it waits for.
    private final IdleStrategy idle = new BackoffIdleStrategy(10, 10, 1_000, 100_000);
    private long admitted;

    /**
     * @param tally            the deliveries to the watchers every write reaches.
     * @param watchersPerWrite how many watchers every write reaches; at least 1.
     * @throws IllegalArgumentException if {@code watchersPerWrite} is below 1.
     */
    InFlightGate(final DeliveryTally tally, final int watchersPerWrite)
    {
        if (watchersPerWrite < 1)
        {
            throw new IllegalArgumentException("every write must reach at least one watcher: " + watchersPerWrite);
        }
        this.tally = tally;
        this.watchersPerWrite = watchersPerWrite;
        this.limit = Math.max(MIN_IN_FLIGHT, Math.min(MAX_IN_FLIGHT, QUEUED_EVENTS_BUDGET / watchersPerWrite));
    }

    /**
     * Waits until fewer than the limit of admitted writes are undelivered, then admits one more.
     * Producer thread; allocates nothing.
     *
     * @return the deliveries counted when the write was admitted.
     * @throws IllegalStateException if no room appears within the safety limit.
     */
    long admit()
    {
        long delivered = tally.total();
        if (admitted - delivered / watchersPerWrite >= limit)
        {
            delivered = awaitDeliveredWrites(admitted - limit + 1);
        }
        admitted++;
        return delivered;
    }

    /**
     * Waits until every admitted write is delivered. Producer thread; allocates nothing.
     *
     * @throws IllegalStateException if that does not happen within the safety limit.
     */
    void awaitAllDelivered()
    {
        awaitDeliveredWrites(admitted);
    }

    /**
     * @return the writes admitted so far. Producer thread.
     */
    long admitted()
    {
        return admitted;
    }

    private long awaitDeliveredWrites(final long writes)
    {
        final long deadline = System.nanoTime() + STALL_LIMIT_NANOS;
        idle.reset();
        long delivered;
        while ((delivered = tally.total()) / watchersPerWrite < writes)
        {
            if (System.nanoTime() - deadline > 0)
            {
                throw new IllegalStateException("watchers stalled: " + delivered + " of " + writes * watchersPerWrite +
                    " deliveries after " + STALL_LIMIT_SECONDS + " s (" + watchersPerWrite + " watchers per write)");
            }
            idle.idle();
        }
        return delivered;
    }
}
