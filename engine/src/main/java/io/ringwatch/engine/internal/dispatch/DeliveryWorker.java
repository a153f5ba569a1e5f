package io.ringwatch.engine.internal.dispatch;

import io.ringwatch.engine.idle.Doorbell;
import io.ringwatch.engine.idle.DueWork;
import org.agrona.concurrent.IdleStrategy;

/**
 * One thread of a {@link DeliveryPool}: takes the next ready task, runs its turns, and idles
 * with its own strategy when the queue is empty. It publishes which task it is in and since
 * when, for the pool's housekeeping to tell a blocked thread from a busy one; a thread beyond
 * the pool's core count retires after the keep-alive time without work.
 * <p>
 * Threading: {@link #run()} on its own thread; {@link #inTurn()}, {@link #turnStartNanos()} and
 * {@link #doorbell()} from any thread. Allocation: none after construction; two ordered stores
 * and a clock read per turn.
 */
final class DeliveryWorker implements Runnable, DueWork
{
    private final DeliveryPool pool;
    private final int slot;
    private final IdleStrategy idleStrategy;
    private final Doorbell doorbell;
    private final EventBatchView batch;
    private final Thread thread;
    private volatile DeliveryTask inTurn;
    private volatile long turnStartNanos;
    /** Own thread: when this surplus thread last ran out of work, 0 while it has some or is not surplus. */
    private long idleSince;
    /** Housekeeping-owned: the start of the last turn reported as overstayed. */
    long reportedTurnStart;

    /**
     * @param doorbell rung by {@link DeliveryPool#wake()}; armed by {@code idleStrategy} if it is
     *                 wakeable, else never armed.
     */
    DeliveryWorker(
        final DeliveryPool pool,
        final int slot,
        final String name,
        final IdleStrategy idleStrategy,
        final Doorbell doorbell,
        final EventBatchView batch)
    {
        this.pool = pool;
        this.slot = slot;
        this.idleStrategy = idleStrategy;
        this.doorbell = doorbell;
        this.batch = batch;
        this.thread = new Thread(this, name);
        thread.setDaemon(true);
    }

    /**
     * While this thread is surplus and idles, its retirement falls due at the end of the pool's
     * keep-alive, which its idle strategy must not sleep through; a surplus thread that has not
     * started counting polls. Own thread, between its polls; no allocation.
     */
    @Override
    public long nanosUntilDue(final long nowNanos)
    {
        if (idleSince != 0)
        {
            return pool.keepAliveNanos() - (nowNanos - idleSince);
        }
        return pool.hasSurplus() ? 0 : DueWork.NONE;
    }

    @Override
    public void run()
    {
        boolean retired = false;
        try
        {
            idleSince = 0;
            while (true)
            {
                final DeliveryTask task = pool.poll();
                if (task != null)
                {
                    idleStrategy.reset();
                    idleSince = 0;
                    pool.run(this, task, batch);
                    continue;
                }
                if (pool.isDone())
                {
                    return;
                }
                if (pool.hasSurplus())
                {
                    final long now = System.nanoTime();
                    if (idleSince == 0)
                    {
                        idleSince = now;
                    }
                    else if (pool.tryRetire(now - idleSince))
                    {
                        retired = true;
                        return;
                    }
                }
                idleStrategy.idle(0);
            }
        }
        finally
        {
            // Disarmed, so a waker's ring goes to a thread that is still there.
            idleStrategy.reset();
            pool.ended(this, retired);
        }
    }

    void enterTurn(final DeliveryTask task)
    {
        turnStartNanos = System.nanoTime();
        inTurn = task;
    }

    void leaveTurn()
    {
        inTurn = null;
    }

    /**
     * @return the task whose turn this thread is in, or null. Any thread.
     */
    DeliveryTask inTurn()
    {
        return inTurn;
    }

    /**
     * @return when the current (or last) turn began, by {@link System#nanoTime()}. Any thread.
     */
    long turnStartNanos()
    {
        return turnStartNanos;
    }

    Doorbell doorbell()
    {
        return doorbell;
    }

    Thread thread()
    {
        return thread;
    }

    int slot()
    {
        return slot;
    }
}
