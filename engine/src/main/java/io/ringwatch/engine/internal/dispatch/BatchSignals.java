package io.ringwatch.engine.internal.dispatch;

import java.util.ArrayDeque;
import java.util.ArrayList;

/**
 * Wakes the consumers of the watchers a dispatcher touched in one duty cycle: each watcher once
 * however many events it got, and the delivery threads' doorbells once per cycle, so the cost of
 * a wake-up is paid per batch, not per event. A watcher whose consumer could not be woken is
 * retried next cycle.
 *
 * <p>Threads: the owning dispatcher thread only. Allocation: none in steady state (the lists grow
 * to the most watchers touched in a cycle).
 */
final class BatchSignals
{
    private final DeliveryPool delivery;
    private final ArrayList<WatcherState> touched = new ArrayList<>();
    private final ArrayDeque<WatcherState> retries = new ArrayDeque<>();
    private long cycle;

    /**
     * @param delivery the pool whose parked threads are woken once per cycle that woke any watcher.
     */
    BatchSignals(final DeliveryPool delivery)
    {
        this.delivery = delivery;
    }

    /**
     * @return the current duty cycle's number.
     */
    long cycle()
    {
        return cycle;
    }

    /**
     * Marks the watcher to be woken at the end of this cycle.
     *
     * @param watcher a watcher whose queue or state changed.
     */
    void touch(final WatcherState watcher)
    {
        final ShardFields fields = watcher.shardFieldsOrNull();
        if (fields == null)
        {
            // An idle watcher, touched by a command: rarely twice in a cycle, and a second signal is harmless.
            touched.add(watcher);
        }
        else if (fields.touchedInBatch != cycle)
        {
            fields.touchedInBatch = cycle;
            touched.add(watcher);
        }
    }

    /**
     * Adds the pull watchers touched so far in this cycle to {@code into}, each once per
     * {@code revision} however many cycles touch it inside that revision.
     *
     * @param revision the revision the cycle ends inside.
     * @param into     receives them.
     */
    void keepTouchedPullWatchers(final long revision, final ArrayList<WatcherState> into)
    {
        for (int i = 0, size = touched.size(); i < size; i++)
        {
            final WatcherState watcher = touched.get(i);
            final ShardFields fields = watcher.shardFieldsOrNull();
            if (watcher instanceof PullWatcherState && fields != null && fields.openRevisionKept != revision)
            {
                fields.openRevisionKept = revision;
                into.add(watcher);
            }
        }
    }

    /**
     * @return whether a watcher whose consumer could not be woken waits for the next cycle's retry.
     */
    boolean hasRetries()
    {
        return !retries.isEmpty();
    }

    /** Wakes every watcher touched in this cycle (and those left from before), then starts the next cycle. */
    void finishCycle()
    {
        final boolean signalling = !touched.isEmpty() || !retries.isEmpty();
        for (int i = 0, size = retries.size(); i < size; i++)
        {
            final WatcherState watcher = retries.poll();
            if (!watcher.signal())
            {
                retries.offer(watcher);
            }
        }
        for (int i = 0, size = touched.size(); i < size; i++)
        {
            final WatcherState watcher = touched.get(i);
            if (!watcher.signal())
            {
                retries.offer(watcher);
            }
        }
        touched.clear();
        cycle++;
        if (signalling)
        {
            // Once per cycle, not per watcher: one fence for all the schedules above, and as many
            // parked delivery threads woken as there are ready watchers.
            delivery.wake();
        }
    }
}
