package io.ringwatch.engine.watch;

import java.util.List;

/**
 * What one {@link DeltaWatcher#next} call returns: at most one {@link Delta} per key, ordered by
 * the revision of each key's newest change, and the revision up to which the batch is complete.
 * Immutable and thread-safe.
 *
 * <p>Applying the deltas of every batch in order to a map gives the watched range's state: at
 * {@link #completeRevision()} for every key changed up to it (a batch may also carry changes of
 * later revisions, which the next batch completes). A {@link #isReset() reset} batch replaces
 * the state: it lists every key the range holds, and keys missing from it no longer exist.
 */
public final class DeltaBatch
{
    private final List<Delta> deltas;
    private final long completeRevision;
    private final boolean reset;
    private final WatchCancellation cancellation;

    /**
     * @param deltas           the deltas, in the order of their revisions.
     * @param completeRevision every change up to this revision is in this or an earlier batch.
     * @param reset            true when the deltas list the whole range (see the class comment).
     * @param cancellation     why the watch ended, or null while it runs.
     */
    public DeltaBatch(final List<Delta> deltas, final long completeRevision, final boolean reset, final WatchCancellation cancellation)
    {
        this.deltas = List.copyOf(deltas);
        this.completeRevision = completeRevision;
        this.reset = reset;
        this.cancellation = cancellation;
    }

    /**
     * @return the deltas, at most one per key, in the order of their revisions.
     */
    public List<Delta> deltas()
    {
        return deltas;
    }

    /**
     * @return the revision up to which every change of the range has been handed over, in this
     * batch or an earlier one; 0 before the watcher knows any.
     */
    public long completeRevision()
    {
        return completeRevision;
    }

    /**
     * @return true when this batch lists the whole range as of its complete revision: the
     * client drops every key it holds that the batch does not list. Sent after the watcher
     * had to list the range again (its events were no longer held).
     */
    public boolean isReset()
    {
        return reset;
    }

    /**
     * @return why the watch ended, or null while it runs.
     */
    public WatchCancellation cancellation()
    {
        return cancellation;
    }

    /**
     * @return true when the batch carries no delta, no reset and no cancellation.
     */
    public boolean isEmpty()
    {
        return deltas.isEmpty() && !reset && cancellation == null;
    }

    @Override
    public String toString()
    {
        return "DeltaBatch(" + deltas.size() + " deltas, complete=" + completeRevision + (reset ? ", reset" : "") +
            (cancellation != null ? ", " + cancellation : "") + ")";
    }
}
