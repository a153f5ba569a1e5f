package io.ringwatch.engine.stats;

import io.ringwatch.engine.watch.CancelReason;
import io.ringwatch.engine.watch.WatchRequest;

import java.util.Objects;

/**
 * What one watcher looked like when an engine was asked ({@code RingWatch.watchers()}): where it
 * stands, how far behind the engine it is, and whether it is served by the routes, reading the
 * history by its own cursor, or has ended. For code that wants per-watcher lag without a metrics
 * registry (a status page, a test, an operator's dump).
 *
 * <p>Immutable. The figures are read racily from fields other threads write, so each is a value
 * the watcher really had at about the time of the call, not a transaction across the engine.
 */
public final class WatcherView
{
    /** Where a watcher is in its life (see the watch design in ARCHITECTURE.md). */
    public enum State
    {
        /** On the routes: its dispatcher queues the events it wants, its consumer delivers them. */
        SYNCED,
        /**
         * Off the routes: its consumer reads the history (window, log) by its own cursor, or will
         * when it next runs.
         */
        CATCHING_UP,
        /** At the end of the history, waiting for its dispatcher to route it again. */
        REJOINING,
        /** Ended; {@link #cancelReason()} says why. */
        CANCELLED
    }

    private final long id;
    private final boolean push;
    private final WatchRequest request;
    private final long startRevision;
    private final long position;
    private final long lag;
    private final int queued;
    private final State state;
    private final CancelReason cancelReason;

    /**
     * @param id            the watch id.
     * @param push          true for a push watcher (a listener on a delivery thread), false for a pull one.
     * @param request       what it asked for.
     * @param startRevision the revision it started from, resolved (a watch from "now" names the revision).
     * @param position      the revision up to which it has been handed every event it wants.
     * @param lag           revisions between {@code position} and the engine's current revision, at least 0.
     * @param queued        entries in its queue not yet delivered.
     * @param state         where it is in its life.
     * @param cancelReason  why it ended, or null while it runs.
     */
    public WatcherView(
        final long id,
        final boolean push,
        final WatchRequest request,
        final long startRevision,
        final long position,
        final long lag,
        final int queued,
        final State state,
        final CancelReason cancelReason)
    {
        this.id = id;
        this.push = push;
        this.request = Objects.requireNonNull(request, "request");
        this.startRevision = startRevision;
        this.position = position;
        this.lag = lag;
        this.queued = queued;
        this.state = Objects.requireNonNull(state, "state");
        this.cancelReason = cancelReason;
    }

    /** @return the watch id. */
    public long id()
    {
        return id;
    }

    /** @return true for a push watcher, false for a pull watcher. */
    public boolean isPush()
    {
        return push;
    }

    /** @return what the watch asked for. */
    public WatchRequest request()
    {
        return request;
    }

    /** @return the revision the watch started from; for a watch from revision 0, the one it resolved to. */
    public long startRevision()
    {
        return startRevision;
    }

    /**
     * @return the revision up to which the watcher has been handed every event it wants (delivered
     * to its listener, or handed to its poller); {@code startRevision() - 1} before anything.
     */
    public long position()
    {
        return position;
    }

    /** @return how many revisions the watcher is behind the engine's current revision (0 when caught up). */
    public long lag()
    {
        return lag;
    }

    /** @return events (and progress markers) queued for it and not yet delivered. */
    public int queued()
    {
        return queued;
    }

    /** @return where the watcher is in its life. */
    public State state()
    {
        return state;
    }

    /** @return why the watch ended, or null while it runs. */
    public CancelReason cancelReason()
    {
        return cancelReason;
    }

    @Override
    public String toString()
    {
        return "WatcherView{id=" + id + (push ? ", push" : ", pull") + ", " + request + ", start=" + startRevision +
            ", position=" + position + ", lag=" + lag + ", queued=" + queued + ", " + state +
            (cancelReason != null ? " " + cancelReason : "") + "}";
    }
}
