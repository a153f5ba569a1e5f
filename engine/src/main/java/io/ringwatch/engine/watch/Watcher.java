package io.ringwatch.engine.watch;

/**
 * A handle on one watch. Thread-safe: any thread may cancel it or ask for progress.
 */
public interface Watcher extends AutoCloseable
{
    /**
     * @return the watch id, unique within the engine (etcd's watch_id).
     */
    long id();

    /**
     * @return what the watch asked for.
     */
    WatchRequest request();

    /**
     * The revision the watch started from, resolved: the request's start revision, or for a watch
     * from revision 0 ("now") the revision it resolved to when it was created, the current revision
     * + 1 (what etcd's create response tells a client). Every event it delivers has this revision
     * or a later one, and it has missed nothing from there on.
     *
     * @return the first revision the watch covers.
     */
    long startRevision();

    /**
     * Ends the watch. Once this returns, no more events are delivered (a listener call already
     * running on another thread completes first). Idempotent: a second call does nothing.
     */
    void cancel();

    /**
     * Same as {@link #cancel()}.
     */
    @Override
    default void close()
    {
        cancel();
    }

    /**
     * @return true once the watch has ended, for any reason.
     */
    boolean isCancelled();

    /**
     * @return why the watch ended, or null while it runs.
     */
    WatchCancellation cancellation();

    /**
     * Asks for one progress notification carrying the revision the watcher is complete up to,
     * delivered in order with its events (etcd's RequestProgress). It is answered at a revision at
     * least as new as the engine's current revision when it was asked (so a client that wrote R
     * and then asks learns when it has seen everything up to R); requests made while one is
     * pending collapse into it. Ignored once cancelled.
     */
    void requestProgress();
}
