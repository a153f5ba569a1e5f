package io.ringwatch.informer;

import java.time.Duration;

/**
 * One handler added to a {@link SharedInformer} (client-go's ResourceEventHandlerRegistration).
 * Thread-safe: any thread may query it or remove it.
 */
public interface HandlerRegistration
{
    /**
     * @return the registration's name, also its thread's name suffix.
     */
    String name();

    /**
     * @return true once the handler has been given every object of the informer's first list (or,
     * when added later, every object cached when it was added).
     */
    boolean hasSynced();

    /**
     * Blocks until {@link #hasSynced()}, the timeout passes, or the handler is removed. Any thread.
     *
     * @param timeout the longest to wait; zero or positive.
     * @return true when synced; false when the timeout passed or the handler was removed first.
     * @throws InterruptedException if the calling thread is interrupted while waiting.
     * @throws io.ringwatch.engine.errors.InvalidRequestException if the timeout is null or negative.
     */
    default boolean awaitSynced(final Duration timeout) throws InterruptedException
    {
        return SyncWait.await(this::hasSynced, this::isRemoved, timeout);
    }

    /**
     * @return the handler's resync period; {@link Duration#ZERO} when it never resyncs.
     */
    Duration resyncPeriod();

    /**
     * @return how many times the handler's buffer filled up so that its pending changes were
     * coalesced per key.
     */
    long overflowCount();

    /**
     * Stops notifying the handler and ends its thread, waiting (up to the informer's stop timeout)
     * for a call in progress to return: once this returns the handler is not called again (if
     * the wait timed out, the stuck call still completes, and nothing follows it). Called from
     * the handler itself it does not wait. Idempotent.
     */
    void remove();

    /**
     * @return true once removed, or once the informer stopped.
     */
    boolean isRemoved();
}
