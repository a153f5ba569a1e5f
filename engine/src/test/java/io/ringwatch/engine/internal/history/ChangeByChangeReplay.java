package io.ringwatch.engine.internal.history;

import io.ringwatch.engine.internal.index.IndexEntry;
import io.ringwatch.engine.internal.index.OffHeapIndex;
import io.ringwatch.engine.spi.HistoryReader;
import io.ringwatch.engine.spi.Journal;
import io.ringwatch.ringbuffer.EventRecord;
import io.ringwatch.ringbuffer.EventType;

/**
 * The reference that recovery's replay is compared with: the log applied as it was before the
 * reader thread, one change read with {@link HistoryReader#next}, then applied, on the calling
 * thread, from the first revision after the journal's snapshot.
 */
public final class ChangeByChangeReplay
{
    private ChangeByChangeReplay()
    {
    }

    /**
     * @param journal the journal to read; its snapshot, if any, is not loaded.
     * @param index   the index to apply every change of the log after the snapshot to.
     * @return the last revision read.
     */
    public static long replay(final Journal journal, final OffHeapIndex index)
    {
        final EventRecord change = new EventRecord();
        final IndexEntry prev = new IndexEntry();
        try (HistoryReader reader = journal.newReader())
        {
            reader.seek(journal.snapshotRevision() + 1);
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
            return reader.lastRevision();
        }
    }

    /**
     * @return whether a recovery reader thread is still alive.
     */
    public static boolean readerThreadAlive()
    {
        return Thread.getAllStackTraces().keySet().stream()
            .anyMatch(t -> t.getName().equals(ReplayReadAhead.THREAD_NAME) && t.isAlive());
    }

    /**
     * Recovers with a ring of the given shape, for tests outside this package.
     *
     * @param journal      the journal to recover.
     * @param index        an empty index.
     * @param ringBatches  batches in the ring, a power of two.
     * @param batchChanges changes per batch.
     * @return the revision recovered.
     */
    public static long recoverThroughRing(final Journal journal, final OffHeapIndex index, final int ringBatches, final int batchChanges)
    {
        return Recovery.recover(journal, index, ringBatches, batchChanges);
    }
}
