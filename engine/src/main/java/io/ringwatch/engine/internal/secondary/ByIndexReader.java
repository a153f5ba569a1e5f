package io.ringwatch.engine.internal.secondary;

import io.ringwatch.engine.internal.index.IndexEntry;
import io.ringwatch.engine.internal.index.OffHeapIndex;
import io.ringwatch.engine.internal.read.PinnedRead;
import io.ringwatch.engine.internal.read.ReadResultBuilder;
import io.ringwatch.engine.internal.undo.UndoLog;
import io.ringwatch.engine.internal.revision.PublishedRevisions;
import io.ringwatch.engine.kv.RangeResult;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Consistent {@code byIndex} reads while the writer keeps writing, pinned like
 * {@link io.ringwatch.engine.internal.read.RangeReader}'s: pin the read at revision P, scan the index
 * value's composite keys and fetch each key's entry from the primary index (both fuzzy), keeping
 * the entries whose modRevision is at most P: such a key was unchanged from P to the fetch, so
 * its composite key was too, and it holds the index value at P. Every key changed after P is then
 * decided by its oldest pre-image after P from the undo log: in the result exactly when that
 * state exists and has the index value. The result is the index value's keys at P, however fast
 * the writer goes.
 *
 * <p>Thread-safe; any reader thread. Allocates the result, packed like a range read's.
 */
final class ByIndexReader
{
    private final OffHeapIndex primary;
    private final UndoLog undo;
    private final PublishedRevisions cursor;
    private final ThreadLocal<IndexEntry> entries = ThreadLocal.withInitial(IndexEntry::new);
    private final ThreadLocal<IndexValues> derived = ThreadLocal.withInitial(IndexValues::new);

    ByIndexReader(final OffHeapIndex primary, final UndoLog undo, final PublishedRevisions cursor)
    {
        this.primary = primary;
        this.undo = undo;
        this.cursor = cursor;
    }

    RangeResult read(final SecondaryIndex index, final byte[] indexValue)
    {
        while (true)
        {
            try (PinnedRead read = PinnedRead.open(undo, cursor))
            {
                final long at = read.revision();
                final ReadResultBuilder result = ReadResultBuilder.forLiveScan();
                scan(index, indexValue, at, result);
                if (!read.awaitScanned())
                {
                    continue;
                }
                final IndexValues values = derived.get();
                final UnsafeBuffer wanted = new UnsafeBuffer(indexValue);
                read.undoneSince(null, (buffer, keyOffset, keyLength, valueOffset, valueLength,
                    createRevision, modRevision, version, lease) ->
                {
                    final boolean matched = valueLength >= 0 &&
                        values.collect(index.name, index.function, buffer, valueOffset, valueLength)
                            .contains(wanted, 0, indexValue.length);
                    result.addPreImage(buffer, keyOffset, keyLength, valueOffset, matched ? valueLength : -1,
                        createRevision, modRevision, version, lease);
                });
                if (read.isStable())
                {
                    return result.build(at, 0);
                }
            }
        }
    }

    /**
     * Scans the index value's composite keys, which sort by the primary key after the common
     * index-value prefix, so the entries reach the result in key order.
     */
    private void scan(final SecondaryIndex index, final byte[] indexValue, final long at, final ReadResultBuilder result)
    {
        final int keyOffset = SecondaryIndex.keyOffset(indexValue.length);
        final IndexEntry entry = entries.get();
        index.scanValue(indexValue, composite ->
        {
            final int keyLength = composite.keyLength() - keyOffset;
            if (primary.get(composite.key(), keyOffset, keyLength, entry) && entry.modRevision() <= at)
            {
                result.addScanned(entry);
            }
            return true;
        });
    }
}
