package io.ringwatch.server.watch;

/**
 * etcd's rule for a watch's own periodic progress notification (progress_notify), as etcd 3.5.22:
 * at each tick a watch that was sent an event since the previous tick gets no progress (v3rpc
 * watch.go {@code sendLoop}: a sent event clears {@code sws.progress[id]}, each tick sets it
 * again), and a watch whose start revision is after the store's revision gets none either (mvcc
 * {@code progressIfSync}, etcd 3.4.38, 3.5.22 and 3.6.2, etcd-io/etcd#20229: a progress below the
 * start would tell the client it had seen revisions it asked to skip). The ticks are the engine's
 * periodic progress of the watch.
 *
 * <p>One per watch, used under its stream's lock; allocates nothing.
 */
final class PeriodicProgress
{
    private final long startRevision;
    private boolean eventsSinceTick;

    /**
     * @param startRevision the start revision the client asked for (0: from now on, never ahead).
     */
    PeriodicProgress(final long startRevision)
    {
        this.startRevision = startRevision;
    }

    /**
     * The watch was sent events: the next tick sends no progress.
     */
    void eventsSent()
    {
        eventsSinceTick = true;
    }

    /**
     * @param revision the store's revision.
     * @return whether the watch starts after it, so that no progress at it may be sent.
     */
    boolean aheadOf(final long revision)
    {
        return revision < startRevision;
    }

    /**
     * A periodic tick; every tick starts a new interval, whether it sends or not.
     *
     * @param revision the revision the progress would report.
     * @return whether to send it.
     */
    boolean tick(final long revision)
    {
        final boolean quiet = !eventsSinceTick;
        eventsSinceTick = false;
        return quiet && !aheadOf(revision);
    }
}
