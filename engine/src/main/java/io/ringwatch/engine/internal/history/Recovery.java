package io.ringwatch.engine.internal.history;

import io.ringwatch.engine.errors.RecoveryException;
import io.ringwatch.engine.internal.index.IndexEntry;
import io.ringwatch.engine.spi.HistoryReader;
import io.ringwatch.engine.spi.Journal;
import io.ringwatch.engine.internal.index.OffHeapIndex;
import io.ringwatch.ringbuffer.EventRecord;
import io.ringwatch.ringbuffer.EventType;
import org.agrona.DirectBuffer;

/**
 * Rebuilds the off-heap index from a {@link Journal} before the writer starts: the newest
 * snapshot, then every change recorded after it, each applied with the key's recorded state
 * (so a change the snapshot already holds is applied harmlessly again). A snapshot and log that
 * do not form one history are refused with {@link RecoveryException}: besides a log that misses or
 * misreports revisions, a snapshot holding a change newer than the last revision recovered (a
 * snapshot committed before the log held what its scan saw) would otherwise come back as keys no
 * watcher can be told about and a range at an older revision silently hides.
 * <p>
 * Speed: the snapshot, whose keys come in ascending order, is an ordered load
 * ({@link OffHeapIndex#beginOrderedLoad}: no hash probe per key, hash slots inserted in slot
 * order). The log is replayed {@value #REPLAY_BATCH} changes at a time: the batch is read, each
 * key's hash slot and then the node it names are touched ({@link OffHeapIndex#touch}), then the
 * changes are applied in order, so the batch's cache misses overlap instead of following one
 * another. A change that fails to decode fails recovery as before; the changes read before it in its
 * batch are not applied, which nothing sees, since a failed recovery discards the index.
 * <p>
 * Runs on the opening thread; allocates a reader, a snapshot sink, {@value #REPLAY_BATCH} reusable
 * records and an entry.
 */
public final class Recovery
{
    /** Changes read before any is applied: enough misses in flight, little to copy. */
    static final int REPLAY_BATCH = 32;

    /** Where replay leaves what its touches loaded, so that the JIT keeps the loads; read by no one. */
    @SuppressWarnings("unused")
    private static long touched;

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
        final SnapshotLoad load = new SnapshotLoad(index);
        final long snapshotRevision;
        try
        {
            snapshotRevision = journal.loadSnapshot(load);
        }
        finally
        {
            index.finishOrderedLoad();
        }
        final long recovered = replay(journal, index, snapshotRevision);
        if (load.newestChange() > recovered)
        {
            throw new RecoveryException("the snapshot at revision " + snapshotRevision + " holds a change of revision " +
                load.newestChange() + " but the revision log ends at revision " + recovered +
                ": the snapshot is ahead of the log");
        }
        return recovered;
    }

    private static long replay(final Journal journal, final OffHeapIndex index, final long snapshotRevision)
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
        final EventRecord[] batch = new EventRecord[REPLAY_BATCH];
        for (int i = 0; i < batch.length; i++)
        {
            batch[i] = new EventRecord();
        }
        final DirectBuffer[] keys = new DirectBuffer[REPLAY_BATCH];
        final int[] keyLengths = new int[REPLAY_BATCH];
        final IndexEntry prev = new IndexEntry();
        long touched = 0;
        try (HistoryReader reader = journal.newReader())
        {
            if (!reader.seek(from))
            {
                throw new RecoveryException("the revision log cannot be read from revision " + from);
            }
            int read;
            do
            {
                read = 0;
                while (read < batch.length && reader.next(batch[read]))
                {
                    read++;
                }
                for (int i = 0; i < read; i++)
                {
                    keys[i] = batch[i].key();
                    keyLengths[i] = batch[i].keyLength();
                }
                touched += index.touch(keys, keyLengths, read);
                for (int i = 0; i < read; i++)
                {
                    apply(batch[i], index, prev);
                }
            }
            while (read == batch.length);
            if (reader.lastRevision() != last)
            {
                throw new RecoveryException("the revision log ends at revision " + reader.lastRevision() +
                    " but reports revision " + last + " as its last");
            }
        }
        Recovery.touched = touched;
        return last;
    }

    private static void apply(final EventRecord change, final OffHeapIndex index, final IndexEntry prev)
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
}
