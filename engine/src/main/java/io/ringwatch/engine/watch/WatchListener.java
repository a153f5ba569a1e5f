package io.ringwatch.engine.watch;

/**
 * Receives a watcher's events. A push watcher's listener is called on the engine's pool of
 * delivery threads, never concurrently with itself: successive calls may come on different
 * threads, each one after the previous has returned (and seeing what it wrote). A pull
 * watcher's {@code poll} calls it on the polling thread. Calls arrive in revision order with no
 * gap and no duplicate.
 *
 * <p>What a slow or blocked listener costs. One that throws (an {@link Error} included) is
 * cancelled with {@link CancelReason#LISTENER_FAILED}; what {@link #onCancelled} throws is ignored. One that blocks holds its delivery thread and nothing
 * else: a call that waits (sleeps, parks, waits for a lock or a latch) longer than
 * {@code listenerBlockedAfter} (2 ms by default), or keeps running 25 times that long (50 ms:
 * computing, native I/O), counts that thread as blocked, and within half the threshold more the
 * pool starts another in its place, so the other watchers keep their latency: 1,000 healthy push
 * watchers beside a listener blocked for ever kept a write-to-listener p99 within 1.5 times the
 * run without it in 9 of 11 back-to-back pairs on a loaded 2-core VM, at most 522 ms when the
 * harness's own producer stalled 515 ms, where the blocked listener used to cost them the 5 s
 * slow-listener timeout (perf-reports/README.md). Each such thread costs a thread stack and one
 * batch of event slots; past {@code maxDeliveryThreads} (64 by default) threads the pool starts
 * no more, and ready watchers wait until a listener returns. Apart from that, a call longer than
 * {@code slowListenerTimeout} (5 s by default) cancels its own watcher with
 * {@link CancelReason#SLOW_LISTENER}, delivered when the call returns: a policy for that
 * watcher, whose events queue behind the blocked call, not what frees the others. Neither slows
 * the writer.
 *
 * <p>A listener may cancel its own watcher or close the engine: {@code close()} from a listener
 * returns without waiting for its own thread, and the listener hears its watcher's
 * {@link CancelReason#ENGINE_CLOSED} after it returns.
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
     * has been delivered (etcd's progress notify, a Kubernetes bookmark). Never below the revision
     * of an event delivered before it, nor below an earlier progress: a client may record it as
     * its last synced revision and resume from there.
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
