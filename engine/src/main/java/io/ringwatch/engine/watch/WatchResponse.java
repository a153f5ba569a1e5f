package io.ringwatch.engine.watch;

import java.util.List;
import java.util.function.Consumer;
import java.util.function.LongConsumer;

/**
 * What {@link PullWatcher#next} returns: copies of the events pending, in revision order, the
 * progress notifications in the places where they fell among those events ({@link #progressMarks()}),
 * and the cancellation if the watch has ended (after everything else). Read in order
 * ({@link #inOrder}: events up to the first mark's position, the mark, the events up to the next
 * one, ...), a response says what
 * {@link PullWatcher#poll} would have handed a listener, call by call: a progress revision never
 * precedes an event at or below it. Immutable and thread-safe.
 */
public final class WatchResponse
{
    private final List<Event> events;
    private final List<ProgressMark> progressMarks;
    private final WatchCancellation cancellation;

    /**
     * A response whose one progress notification, if any, follows all its events.
     *
     * @param events           the events, in revision order.
     * @param progressRevision the revision of a progress notification after the events, or 0 for none.
     * @param cancellation     why the watch ended, or null while it runs.
     * @throws IllegalArgumentException if {@code progressRevision} is negative.
     */
    public WatchResponse(final List<Event> events, final long progressRevision, final WatchCancellation cancellation)
    {
        this(events, progressRevision == 0 ? List.of() : List.of(new ProgressMark(events.size(), progressRevision)),
            cancellation);
    }

    /**
     * @param events        the events, in revision order.
     * @param progressMarks the progress notifications in the order they came, each where it fell.
     * @param cancellation  why the watch ended, or null while it runs.
     * @throws IllegalArgumentException if a mark lies beyond the events, or the marks go back in
     *                                  position or revision.
     */
    public WatchResponse(final List<Event> events, final List<ProgressMark> progressMarks, final WatchCancellation cancellation)
    {
        this.events = List.copyOf(events);
        this.progressMarks = List.copyOf(progressMarks);
        this.cancellation = cancellation;
        ProgressMark previous = null;
        for (final ProgressMark mark : this.progressMarks)
        {
            if (mark.position() > this.events.size())
            {
                throw new IllegalArgumentException("progress mark " + mark + " lies beyond the " + this.events.size() + " events");
            }
            if (previous != null && (mark.position() < previous.position() || mark.revision() < previous.revision()))
            {
                throw new IllegalArgumentException("progress mark " + mark + " goes back behind " + previous);
            }
            previous = mark;
        }
    }

    /**
     * @return the events, in revision order.
     */
    public List<Event> events()
    {
        return events;
    }

    /**
     * @return the progress notifications in the order they came, each with its place among
     *         {@link #events()}; empty when none came.
     */
    public List<ProgressMark> progressMarks()
    {
        return progressMarks;
    }

    /**
     * The latest progress notification's revision. Events after its mark ({@link #progressMarks()})
     * are of higher revisions; use the marks to tell where it fell.
     *
     * @return the last progress revision delivered, or 0 when none was (or it was at revision 0).
     */
    public long progressRevision()
    {
        return progressMarks.isEmpty() ? 0 : progressMarks.get(progressMarks.size() - 1).revision();
    }

    /**
     * Reads the response in the order it came: runs of events, each progress notification where it
     * fell between them. The cancellation, if any, comes after all of it ({@link #cancellation()}).
     * Calling thread; allocation: a sub-list view per run of events.
     *
     * @param events   receives each run of events, in order; not called for an empty run.
     * @param progress receives each progress revision, in order.
     */
    public void inOrder(final Consumer<List<Event>> events, final LongConsumer progress)
    {
        int at = 0;
        for (final ProgressMark mark : progressMarks)
        {
            if (mark.position() > at)
            {
                events.accept(this.events.subList(at, mark.position()));
            }
            progress.accept(mark.revision());
            at = mark.position();
        }
        if (this.events.size() > at)
        {
            events.accept(this.events.subList(at, this.events.size()));
        }
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
        return events.isEmpty() && progressMarks.isEmpty() && cancellation == null;
    }

    @Override
    public String toString()
    {
        return "WatchResponse(events=" + events + ", progress=" + progressMarks + ", cancellation=" + cancellation + ")";
    }
}
