package io.ringwatch.engine.internal.dispatch;

import io.ringwatch.engine.idle.Doorbell;
import org.agrona.concurrent.IdleStrategy;

/**
 * One thread of a {@link DeliveryPool}: takes the next ready task, runs its turns, and idles
 * with its own strategy when the queue is empty. It publishes which task it is in, and its
 * {@link ListenerClock} since when it is inside a listener call, for the pool's housekeeping to
 * tell a thread blocked in user code from one busy with the engine's work; a thread beyond the
 * pool's core count retires after the keep-alive time without work.
 * <p>
 * Threading: {@link #run()} on its own thread; {@link #inTurn()}, {@link #calls()} and
 * {@link #doorbell()} from any thread. Allocation: none after construction; two ordered stores
 * per turn, and the clock's per listener call.
 */
final class DeliveryWorker implements Runnable
{
    private final DeliveryPool pool;
    private final int slot;
    private final IdleStrategy idleStrategy;
    private final Doorbell doorbell;
    private final EventBatchView batch;
    private final ListenerClock calls = new ListenerClock();
    private final Thread thread;
    private volatile DeliveryTask inTurn;
    /** Housekeeping-owned: the start of the last listener call reported as overstayed. */
    long reportedCallStart;

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

    @Override
    public void run()
    {
        boolean retired = false;
        try
        {
            long idleSince = 0;
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
     * @return the clock of this thread's listener calls. Any thread.
     */
    ListenerClock calls()
    {
        return calls;
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
