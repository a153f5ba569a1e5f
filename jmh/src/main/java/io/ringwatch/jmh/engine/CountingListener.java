package io.ringwatch.jmh.engine;

import io.ringwatch.engine.watch.EventBatch;
import io.ringwatch.engine.watch.WatchCancellation;
import io.ringwatch.engine.watch.WatchListener;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A push listener that only counts the events it is handed, so a benchmark exercises the whole watch
 * path (window, dispatcher, delivery thread) without measuring listener work. Called by the engine's
 * delivery thread; {@link #awaitDelivered} and the getters may be called from any thread. Counting
 * allocates nothing.
 */
final class CountingListener implements WatchListener
{
    private static final long POLL_NANOS = 1_000_000;

    private final AtomicLong delivered = new AtomicLong();
    private volatile WatchCancellation cancellation;

    /**
     * Adds the batch's size to the count. Delivery thread; allocates nothing.
     *
     * @param events the events delivered.
     */
    @Override
    public void onEvents(final EventBatch events)
    {
        delivered.addAndGet(events.size());
    }

    /**
     * Remembers why the watch ended. Delivery thread.
     *
     * @param cancellation why the watch ended.
     */
    @Override
    public void onCancelled(final WatchCancellation cancellation)
    {
        this.cancellation = cancellation;
    }

    /**
     * Waits until at least {@code expected} events were delivered, the watch was cancelled, or
     * {@code timeout} passed (a safety net, not a measurement). Any thread; allocates nothing.
     *
     * @param expected the number of events to wait for.
     * @param timeout  the longest to wait.
     * @return true when {@code expected} events arrived.
     */
    boolean awaitDelivered(final long expected, final Duration timeout)
    {
        final long deadline = System.nanoTime() + timeout.toNanos();
        while (delivered.get() < expected && cancellation == null && System.nanoTime() - deadline < 0)
        {
            LockSupport.parkNanos(POLL_NANOS);
        }
        return delivered.get() >= expected;
    }

    /**
     * @return the events delivered so far.
     */
    long delivered()
    {
        return delivered.get();
    }

    /**
     * @return why the watch ended, or null while it runs.
     */
    WatchCancellation cancellation()
    {
        return cancellation;
    }
}
