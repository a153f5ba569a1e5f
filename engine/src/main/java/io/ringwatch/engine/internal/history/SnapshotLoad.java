package io.ringwatch.engine.internal.history;

import io.ringwatch.engine.internal.index.OffHeapIndex;
import io.ringwatch.engine.spi.SnapshotSink;
import org.agrona.DirectBuffer;

/**
 * Recovery's receiver of a snapshot: an ordered load of the index ({@link OffHeapIndex#beginOrderedLoad},
 * begun at the first call, sized from {@link #expectEntries} when the journal tells), and the newest
 * change the snapshot holds, which recovery checks against the log. The caller ends the load with
 * {@link OffHeapIndex#finishOrderedLoad}, also when the journal throws.
 * <p>
 * Threads: the recovering thread only. Allocation: none per entry beyond the index's own.
 */
final class SnapshotLoad implements SnapshotSink
{
    private final OffHeapIndex index;
    private boolean begun;
    private long newestChange;

    /**
     * @param index an empty index, not yet shared.
     */
    SnapshotLoad(final OffHeapIndex index)
    {
        this.index = index;
    }

    @Override
    public void expectEntries(final long entries)
    {
        begin(entries);
    }

    @Override
    public void entry(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength,
        final long createRevision, final long modRevision, final long version, final long lease)
    {
        begin(0);
        newestChange = Math.max(newestChange, modRevision);
        index.restoreInOrder(key, keyOffset, keyLength, value, valueOffset, valueLength, lease,
            createRevision, modRevision, version);
    }

    /**
     * @return the largest modRevision among the entries loaded, 0 for none.
     */
    long newestChange()
    {
        return newestChange;
    }

    private void begin(final long entries)
    {
        if (!begun)
        {
            begun = true;
            index.beginOrderedLoad(entries);
        }
    }
}
