package io.ringwatch.engine.internal.history;

import io.ringwatch.engine.internal.index.IndexEntry;
import io.ringwatch.engine.spi.HistoryReader;
import io.ringwatch.engine.spi.Journal;
import io.ringwatch.engine.internal.index.OffHeapIndex;
import io.ringwatch.ringbuffer.EventRecord;
import io.ringwatch.ringbuffer.EventType;

/**
 * Rebuilds the off-heap index from a {@link Journal} before the writer starts: the newest
 * snapshot, then every change recorded after it, each applied with the key's recorded state
 * (so a change the snapshot already holds is applied harmlessly again). Runs on the opening
 * thread; allocates a reader and two reusable records.
 */
public final class Recovery
{
    private Recovery()
    {
    }

    /**
     * Loads the journal into an empty index.
     *
     * @param journal the log to recover from.
     * @param index   an empty index, not yet shared with any other thread.
     * @return the last revision recovered, 0 for an empty journal.
     * @throws IllegalStateException if the log is missing revisions the snapshot does not cover.
     */
    public static long recover(final Journal journal, final OffHeapIndex index)
    {
        final IndexEntry prev = new IndexEntry();
        final long snapshotRevision = journal.loadSnapshot(
            (key, keyOffset, keyLength, value, valueOffset, valueLength, createRevision, modRevision, version, lease) ->
                index.restore(key, keyOffset, keyLength, value, valueOffset, valueLength, lease,
                    createRevision, modRevision, version, prev));
        final long last = journal.lastRevision();
        if (last <= snapshotRevision)
        {
            return Math.max(last, snapshotRevision);
        }
        final long from = snapshotRevision + 1;
        if (journal.firstRevision() > from)
        {
            throw new IllegalStateException("the revision log starts at revision " + journal.firstRevision() +
                " but recovery needs it from revision " + from);
        }
        final EventRecord change = new EventRecord();
        try (HistoryReader reader = journal.newReader())
        {
            if (!reader.seek(from))
            {
                throw new IllegalStateException("the revision log cannot be read from revision " + from);
            }
            while (reader.next(change))
            {
                if (change.type() == EventType.PUT)
                {
                    index.restore(change.key(), 0, change.keyLength(), change.value(), 0, change.valueLength(),
                        change.lease(), change.createRevision(), change.modRevision(), change.version(), prev);
                }
                else
                {
                    index.remove(change.key(), 0, change.keyLength(), prev);
                }
            }
            if (reader.lastRevision() != last)
            {
                throw new IllegalStateException("the revision log ends at revision " + reader.lastRevision() +
                    " but reports revision " + last + " as its last");
            }
        }
        return last;
    }
}
