package io.ringwatch.engine.internal.read;

import io.ringwatch.engine.errors.ReadBudgetExceededException;
import io.ringwatch.engine.internal.index.IndexEntry;
import io.ringwatch.engine.internal.index.IndexVisitor;
import io.ringwatch.engine.internal.index.OffHeapIndex;
import io.ringwatch.engine.internal.undo.UndoLog;
import io.ringwatch.engine.internal.revision.PublishedRevisions;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.kv.RangeResult;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;


/**
 * Consistent reads of the off-heap index while the writer keeps writing, with no lock, no pause of
 * the writer and no limit on the range's size or the write rate (only the undo budget's).
 *
 * <p>How: {@link PinnedRead pin} the read at the newest visible revision P; scan the index
 * (fuzzy: each entry is an untorn version, but entries may come from different moments), keeping
 * the entries whose modRevision is at most P, which are exactly the keys unchanged since P; then
 * add, for every key of the range changed after P, its oldest pre-image after P from the undo
 * log (dropping keys absent at P). Keys deleted during the scan come back this way, keys created
 * after P are dropped. The pin names the range and, every 64 keys, the last key the
 * scan read, so the writer keeps pre-images only of the range's keys the scan has not read yet. With a limit the scan stops after limit + 1 kept entries and the pre-images
 * beyond the last one are ignored, so a page of a large range costs O(limit + changes since P).
 *
 * <p>Durability gate: in a SYNC engine the pinned revision is applied, hence durable, so a read
 * never returns a revision that is not durable. A point read waits for what it saw the same way.
 * After a journal failure the index is rolled back to the durable revision; a read that
 * overlapped the roll-back starts over.
 *
 * <p>Thread-safe; any reader thread. Allocates the result, its key-values packed into a few byte
 * arrays ({@link ReadResultBuilder}).
 */
public final class RangeReader
{
    /** Keys a scan reads between two reports of its progress to the writer (a key copied each). */
    private static final int PASS_EVERY = 64;

    private final OffHeapIndex index;
    private final UndoLog undo;
    private final PublishedRevisions cursor;
    private final boolean awaitDurable;
    private final ThreadLocal<IndexEntry> entries = ThreadLocal.withInitial(IndexEntry::new);

    /**
     * @param index        the index to read.
     * @param undo         keeps the pre-images pinned reads need.
     * @param cursor       the writer's progress.
     * @param awaitDurable true in a SYNC engine: a point read returns only once what it saw is
     *                     durable (range reads are pinned at a visible revision).
     */
    public RangeReader(final OffHeapIndex index, final UndoLog undo, final PublishedRevisions cursor,
        final boolean awaitDurable)
    {
        this.index = index;
        this.undo = undo;
        this.cursor = cursor;
        this.awaitDurable = awaitDurable;
    }

    /**
     * @param key the key.
     * @return its current key-value, or null when absent.
     */
    public KeyValue get(final byte[] key)
    {
        final IndexEntry entry = entries.get();
        return get(new UnsafeBuffer(key), 0, key.length, entry) ? toKeyValue(entry) : null;
    }

    /**
     * Zero-allocation point read into a caller's holder; in a SYNC engine it returns only once
     * what it read is durable.
     *
     * @param key    buffer holding the key.
     * @param offset where the key starts.
     * @param length the key's length.
     * @param into   receives the entry.
     * @return true when the key exists.
     */
    public boolean get(final DirectBuffer key, final int offset, final int length, final IndexEntry into)
    {
        while (true)
        {
            final long stamp = cursor.readStamp();
            final boolean found = index.get(key, offset, length, into);
            if (awaitDurable)
            {
                cursor.awaitApplying();
            }
            if (cursor.isStable(stamp))
            {
                return found;
            }
        }
    }

    /**
     * Reads a range exactly as it was at one revision, the newest visible when the read began.
     *
     * @param range the keys.
     * @param limit the most key-values to return; 0 for all.
     * @return the key-values at the result's revision, in key order.
     * @throws ReadBudgetExceededException if the writer changed more keys during the read than the
     *                                     undo budget holds.
     */
    public RangeResult range(final KeyRange range, final int limit)
    {
        return read(range, limit, false);
    }

    /**
     * Counts a range's keys exactly as it was at one revision, the newest visible when the count
     * began; copies keys but no value.
     *
     * @param range the keys.
     * @return how many keys it held at that revision.
     * @throws ReadBudgetExceededException as {@link #range}.
     */
    public long count(final KeyRange range)
    {
        return read(range, 0, true).kvs().size();
    }

    private RangeResult read(final KeyRange range, final int limit, final boolean keysOnly)
    {
        while (true)
        {
            try (PinnedRead read = PinnedRead.open(undo, cursor, range))
            {
                final long at = read.revision();
                final ReadResultBuilder result = keysOnly ? ReadResultBuilder.forLiveCount() : ReadResultBuilder.forLiveScan();
                scan(range, limit <= 0 ? 0 : limit + 1, at, result, read);
                if (limit > 0 && result.scannedCount() > limit)
                {
                    result.cutAtLastScanned();
                }
                if (!read.awaitScanned())
                {
                    continue;
                }
                read.undoneSince(range, result::addPreImage);
                if (read.isStable())
                {
                    return result.build(at, limit);
                }
            }
        }
    }

    /**
     * Collects the range's entries unchanged since {@code at}, in key order, up to {@code keep},
     * telling the pin every {@link #PASS_EVERY} keys how far it has read.
     */
    private void scan(final KeyRange range, final int keep, final long at, final ReadResultBuilder result,
        final PinnedRead read)
    {
        final byte[] from = range.fromKey();
        if (range.isSingleKey())
        {
            final IndexEntry entry = entries.get();
            if (index.get(new UnsafeBuffer(from), 0, from.length, entry) && entry.modRevision() <= at)
            {
                result.addScanned(entry);
            }
            return;
        }
        final byte[] to = range.toKey();
        index.scan(new UnsafeBuffer(from), 0, from.length, to == null ? null : new UnsafeBuffer(to), 0,
            to == null ? 0 : to.length, 0, new IndexVisitor()
            {
                private int visited;

                @Override
                public boolean visit(final IndexEntry entry)
                {
                    if (entry.modRevision() <= at)
                    {
                        result.addScanned(entry);
                    }
                    if (++visited == PASS_EVERY)
                    {
                        visited = 0;
                        read.passed(entry.keyBytes());
                    }
                    return keep == 0 || result.scannedCount() < keep;
                }
            });
    }

    private static KeyValue toKeyValue(final IndexEntry entry)
    {
        return new KeyValue(entry.keyBytes(), entry.valueBytes(), entry.createRevision(), entry.modRevision(), entry.version(),
            entry.lease());
    }
}
