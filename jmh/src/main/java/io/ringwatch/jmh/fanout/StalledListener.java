package io.ringwatch.jmh.fanout;

import io.ringwatch.engine.watch.EventBatch;
import io.ringwatch.engine.watch.WatchListener;

import java.util.concurrent.CountDownLatch;

/**
 * A push listener that blocks inside its first call until released: the stalled watcher. The engine calls
 * {@link #onEvents} on a delivery thread; {@link #release()} and {@link #hasStalled()} may be called from
 * any thread. Allocates nothing after construction.
 */
final class StalledListener implements WatchListener
{
    private final CountDownLatch released = new CountDownLatch(1);
    private volatile boolean stalled;

    /**
     * Blocks the delivery thread until {@link #release()}. Delivery thread.
     *
     * @param events the events, ignored.
     */
    @Override
    public void onEvents(final EventBatch events)
    {
        stalled = true;
        try
        {
            released.await();
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Lets the blocked call, and every later one, return at once. Any thread.
     */
    void release()
    {
        released.countDown();
    }

    /**
     * @return true once a delivery thread has entered the listener. Any thread.
     */
    boolean hasStalled()
    {
        return stalled;
    }
}
