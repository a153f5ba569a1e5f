package io.ringwatch.engine.watch;

/**
 * Receives a watcher's events. A push watcher's listener is called on one of the engine's
 * delivery threads, never concurrently with itself; a pull watcher's {@code poll} calls it on
 * the polling thread. Calls arrive in revision order with no gap and no duplicate.
 *
 * <p>A listener must return promptly: one that throws is cancelled with
 * {@link CancelReason#LISTENER_FAILED}, one that stays in a call past the configured limit is
 * cancelled with {@link CancelReason#SLOW_LISTENER}, and neither slows the writer or other
 * watchers.
 */
@FunctionalInterface
public interface WatchListener
{
    /**
     * @param events the next events; valid only during this call.
     */
    void onEvents(EventBatch events);

    /**
     * A progress notification: every change up to {@code revision} that this watcher matches
     * has been delivered (etcd's progress notify, a Kubernetes bookmark).
     *
     * @param revision the revision the watcher is complete up to.
     */
    default void onProgress(final long revision)
    {
    }

    /**
     * The watch ended; no call follows this one.
     *
     * @param cancellation why, and the revision to resume from.
     */
    default void onCancelled(final WatchCancellation cancellation)
    {
    }
}
