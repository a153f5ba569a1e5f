package io.ringwatch.jmh.fanout;

import io.ringwatch.baseline.ChangeEvent;
import io.ringwatch.baseline.LockedWatcher;

import java.util.AbstractCollection;
import java.util.Collections;
import java.util.Iterator;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One watcher of the locked baseline ({@link io.ringwatch.baseline.LockedWatchStore}, linear-scan routing), written the way j.u.c. invites: its own
 * unbounded {@link LinkedBlockingQueue} of events and a drain task that a shared pool runs whenever the
 * queue has something (an {@link AtomicBoolean} keeps the task at most once in the pool's queue). Each run
 * takes at most {@value #BATCH} events, as the engine's delivery threads do, and counts them into its
 * {@link DeliveryTally}.
 * <p>
 * {@link #offer} is called by the store under its lock; {@link #run()} by a pool
 * thread; the getters by any thread. Offering allocates a queue node and sometimes a pool task entry.
 */
final class QueueWatcher implements Runnable, LockedWatcher
{
    private static final int BATCH = 256;
    // drainTo only needs somewhere to put events; the count it returns is all the watcher keeps.
    private static final AbstractCollection<Object> DISCARD = new AbstractCollection<>()
    {
        @Override
        public boolean add(final Object event)
        {
            return true;
        }

        @Override
        public Iterator<Object> iterator()
        {
            return Collections.emptyIterator();
        }

        @Override
        public int size()
        {
            return 0;
        }
    };

    private final Executor pool;
    private final DeliveryTally tally;
    private final LinkedBlockingQueue<Object> queue = new LinkedBlockingQueue<>();
    private final AtomicBoolean scheduled = new AtomicBoolean();
    private volatile long delivered;

    /**
     * @param pool  runs the drain task.
     * @param tally where every delivery is also added.
     */
    QueueWatcher(final Executor pool, final DeliveryTally tally)
    {
        this.pool = pool;
        this.tally = tally;
    }

    /**
     * Queues an event and makes sure a drain task is on its way. Store's lock holder.
     *
     * @param event the event.
     * @return true: the queue is unbounded, the watcher stays.
     */
    @Override
    public boolean offer(final ChangeEvent event)
    {
        queue.offer(event);
        if (scheduled.compareAndSet(false, true))
        {
            pool.execute(this);
        }
        return true;
    }

    /**
     * Drains one batch and counts it, then reschedules itself if more arrived. Pool thread.
     */
    @Override
    public void run()
    {
        final int drained = queue.drainTo(DISCARD, BATCH);
        if (drained > 0)
        {
            // One pool thread at a time runs this watcher, so a plain increment of the volatile is exact.
            delivered = delivered + drained;
            tally.add(drained);
        }
        scheduled.set(false);
        if (!queue.isEmpty() && scheduled.compareAndSet(false, true))
        {
            pool.execute(this);
        }
    }

    /**
     * @return the events this watcher has drained so far. Any thread.
     */
    long delivered()
    {
        return delivered;
    }
}
