package io.ringwatch.engine.internal.history;

import io.ringwatch.engine.errors.RecoveryException;
import io.ringwatch.engine.internal.index.ChunkPrefault;
import io.ringwatch.engine.internal.index.IndexEntry;
import io.ringwatch.engine.spi.HistoryReader;
import io.ringwatch.engine.spi.Journal;
import io.ringwatch.engine.spi.ReplayBatch;
import io.ringwatch.engine.internal.index.OffHeapIndex;
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
 * order). The log is read and decoded on a second thread ({@link ReplayReadAhead}), which fills
 * batches of {@value #BATCH_CHANGES} changes ({@link HistoryReader#fill}: each key and its state
 * after the change, not the previous value) in a ring of {@value #RING_BATCHES} ({@link ReplayRing});
 * the opening thread applies each batch {@value #TOUCH_GROUP} changes at a time: each key's hash
 * slot and then the node it names are touched ({@link OffHeapIndex#touch}), then the changes are
 * applied in order (a put without copying out the entry it replaces,
 * {@link OffHeapIndex#restoreWithoutPrevious}), so the group's cache misses overlap instead of
 * following one another, and the log's read overlaps them too. While the log replays, a third
 * thread makes the index's next arena chunks ahead ({@link OffHeapIndex#prefaultChunks}), so the
 * page faults and zeroing of fresh memory leave the applying thread (not while the snapshot loads:
 * its ordered load was not shown faster with it). Whatever the reader throws (a change that
 * fails to decode, a file cut short) is thrown by recovery as before, once the batches read before it are applied, which
 * nothing sees, since a failed recovery discards the index; the reader thread has ended before
 * recovery returns or throws.
 * <p>
 * Runs on the opening thread, plus the reader and prefault threads during a replay (both have
 * ended when recovery returns or throws); allocates a reader, a snapshot sink, the prefault thread,
 * the ring (its batches' buffers off-heap, {@value #BATCH_BYTES} bytes each to start with), the
 * reader thread and an entry.
 */
public final class Recovery
{
    /** Changes per batch the reader hands over: one hand-over per this many changes. */
    static final int BATCH_CHANGES = 256;
    /**
     * Batches in the ring: how far the reader may run ahead of the applies (16,384 changes, about
     * 5 ms of applies), enough that the applies go on while a descheduled reader waits for a core.
     */
    static final int RING_BATCHES = 64;
    /** Changes touched before any is applied: enough misses in flight, few enough to stay cached. */
    static final int TOUCH_GROUP = 32;
    /** Each batch's first buffer size: room for its changes at 128 bytes of key and value each. */
    static final int BATCH_BYTES = BATCH_CHANGES * 128;

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
        return recover(journal, index, RING_BATCHES, BATCH_CHANGES);
    }

    /**
     * As {@link #recover(Journal, OffHeapIndex)}, with a ring of another shape (tests use tiny ones
     * to make the reader wait for the applies).
     *
     * @param ringBatches  batches in the ring, a power of two.
     * @param batchChanges changes per batch, at least 1.
     */
    static long recover(final Journal journal, final OffHeapIndex index, final int ringBatches, final int batchChanges)
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
        final long recovered = replay(journal, index, snapshotRevision, ringBatches, batchChanges);
        if (load.newestChange() > recovered)
        {
            throw new RecoveryException("the snapshot at revision " + snapshotRevision + " holds a change of revision " +
                load.newestChange() + " but the revision log ends at revision " + recovered +
                ": the snapshot is ahead of the log");
        }
        return recovered;
    }

    private static long replay(
        final Journal journal, final OffHeapIndex index, final long snapshotRevision, final int ringBatches, final int batchChanges)
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
        final IndexEntry prev = new IndexEntry();
        long touched = 0;
        final long lastRead;
        try (HistoryReader reader = journal.newReader())
        {
            if (!reader.seek(from))
            {
                throw new RecoveryException("the revision log cannot be read from revision " + from);
            }
            try (ChunkPrefault prefault = index.prefaultChunks();
                ReplayReadAhead readAhead = ReplayReadAhead.start(reader, new ReplayRing(ringBatches, batchChanges, BATCH_BYTES)))
            {
                ReplayBatch batch;
                while ((batch = readAhead.take()) != null)
                {
                    touched += apply(batch, index, prev);
                    readAhead.release();
                }
            }
            lastRead = reader.lastRevision();
        }
        if (lastRead != last)
        {
            throw new RecoveryException("the revision log ends at revision " + lastRead +
                " but reports revision " + last + " as its last");
        }
        Recovery.touched = touched;
        return last;
    }

    /**
     * Applies a batch in groups of {@value #TOUCH_GROUP}: each group's slots and nodes are touched,
     * then its changes applied in order.
     */
    private static long apply(final ReplayBatch batch, final OffHeapIndex index, final IndexEntry prev)
    {
        final DirectBuffer bytes = batch.bytes();
        final int count = batch.count();
        long touched = 0;
        for (int from = 0; from < count; from += TOUCH_GROUP)
        {
            final int end = Math.min(count, from + TOUCH_GROUP);
            touched += index.touch(bytes, batch.keyOffsets(), batch.keyLengths(), from, end - from);
            for (int i = from; i < end; i++)
            {
                if (batch.isPut(i))
                {
                    index.restoreWithoutPrevious(bytes, batch.keyOffset(i), batch.keyLength(i), bytes, batch.valueOffset(i),
                        batch.valueLength(i), batch.lease(i), batch.createRevision(i), batch.modRevision(i), batch.version(i));
                }
                else
                {
                    index.remove(bytes, batch.keyOffset(i), batch.keyLength(i), prev);
                }
            }
        }
        return touched;
    }

}
