package io.ringwatch.engine.watch;

import java.util.List;

/**
 * What {@link PullWatcher#next} returns: copies of the events pending, in revision order, the
 * last progress revision seen (0 when none), and the cancellation if the watch has ended.
 * Immutable and thread-safe.
 */
public final class WatchResponse
{
    private final List<Event> events;
    private final long progressRevision;
    private final WatchCancellation cancellation;

    /**
     * @param events           the events, in revision order.
     * @param progressRevision the last progress notification's revision, or 0.
     * @param cancellation     why the watch ended, or null while it runs.
     */
    public WatchResponse(final List<Event> events, final long progressRevision, final WatchCancellation cancellation)
    {
        this.events = List.copyOf(events);
        this.progressRevision = progressRevision;
        this.cancellation = cancellation;
    }

    /**
     * @return the events, in revision order.
     */
    public List<Event> events()
    {
        return events;
    }

    /**
     * @return the last progress revision delivered, or 0 when none was.
     */
    public long progressRevision()
    {
        return progressRevision;
    }

    /**
     * @return the cancellation when the watch has ended, else null.
     */
    public WatchCancellation cancellation()
    {
        return cancellation;
    }

    /**
     * @return true when nothing at all was pending.
     */
    public boolean isEmpty()
    {
        return events.isEmpty() && progressRevision == 0 && cancellation == null;
    }

    @Override
    public String toString()
    {
        return "WatchResponse(events=" + events + ", progress=" + progressRevision + ", cancellation=" + cancellation + ")";
    }
}
