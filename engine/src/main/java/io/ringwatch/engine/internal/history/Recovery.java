package io.ringwatch.engine.internal.history;

import io.ringwatch.engine.errors.RecoveryException;
import io.ringwatch.engine.internal.index.IndexEntry;
import io.ringwatch.engine.spi.HistoryReader;
import io.ringwatch.engine.spi.Journal;
import io.ringwatch.engine.internal.index.OffHeapIndex;
import io.ringwatch.ringbuffer.EventRecord;
import io.ringwatch.ringbuffer.EventType;

/**
 * Rebuilds the off-heap index from a {@link Journal} before the writer starts: the newest
 * snapshot, then every change recorded after it, each applied with the key's recorded state
 * (so a change the snapshot already holds is applied harmlessly again). A snapshot and log that
 * do not form one history are refused with {@link RecoveryException}: besides a log that misses or
 * misreports revisions, a snapshot holding a change newer than the last revision recovered (a
 * snapshot committed before the log held what its scan saw) would otherwise come back as keys no
 * watcher can be told about and a range at an older revision silently hides. Runs on the opening
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
     * @throws RecoveryException if the log is missing revisions the snapshot does not cover, or the
     *                           snapshot holds a change newer than the revision recovered.
     */
    public static long recover(final Journal journal, final OffHeapIndex index)
    {
        final IndexEntry prev = new IndexEntry();
        final long[] newestInSnapshot = new long[1];
        final long snapshotRevision = journal.loadSnapshot(
            (key, keyOffset, keyLength, value, valueOffset, valueLength, createRevision, modRevision, version, lease) ->
            {
                newestInSnapshot[0] = Math.max(newestInSnapshot[0], modRevision);
                index.restore(key, keyOffset, keyLength, value, valueOffset, valueLength, lease,
                    createRevision, modRevision, version, prev);
            });
        final long recovered = replay(journal, index, snapshotRevision, prev);
        if (newestInSnapshot[0] > recovered)
        {
            throw new RecoveryException("the snapshot at revision " + snapshotRevision + " holds a change of revision " +
                newestInSnapshot[0] + " but the revision log ends at revision " + recovered +
                ": the snapshot is ahead of the log");
        }
        return recovered;
    }

    private static long replay(final Journal journal, final OffHeapIndex index, final long snapshotRevision, final IndexEntry prev)
    {
        final long last = journal.lastRevision();
        if (last <= snapshotRevision)
        {
            return Math.max(last, snapshotRevision);
        }
        final long from = snapshotRevision + 1;
        if (journal.firstRevision() > from)
        {
            throw new RecoveryException("the revision log starts at revision " + journal.firstRevision() +
                " but recovery needs it from revision " + from);
        }
        final EventRecord change = new EventRecord();
        try (HistoryReader reader = journal.newReader())
        {
            if (!reader.seek(from))
            {
                throw new RecoveryException("the revision log cannot be read from revision " + from);
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
                throw new RecoveryException("the revision log ends at revision " + reader.lastRevision() +
                    " but reports revision " + last + " as its last");
            }
        }
        return last;
    }
}
