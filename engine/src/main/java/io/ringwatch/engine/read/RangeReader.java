package io.ringwatch.engine.read;

import io.ringwatch.engine.ReadBudgetExceededException;
import io.ringwatch.engine.index.IndexEntry;
import io.ringwatch.engine.index.OffHeapIndex;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.kv.Keys;
import io.ringwatch.engine.kv.RangeResult;
import io.ringwatch.engine.undo.UndoLog;
import io.ringwatch.engine.write.RevisionCursor;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Consistent reads of the off-heap index while the writer keeps writing, with no lock, no pause of
 * the writer and no limit on the range's size or the write rate (only the undo budget's).
 *
 * <p>How: {@link PinnedRead pin} the read at the newest visible revision P; scan the index
 * (fuzzy: each entry is an untorn version, but entries may come from different moments), keeping
 * the entries whose modRevision is at most P, which are exactly the keys unchanged since P; then
 * add, for every key of the range changed after P, its oldest pre-image after P from the undo
 * log (dropping keys absent at P). Keys deleted during the scan come back this way, keys created
 * after P are dropped. With a limit the scan stops after limit + 1 kept entries and the pre-images
 * beyond the last one are ignored, so a page of a large range costs O(limit + changes since P).
 *
 * <p>Durability gate: in a SYNC engine the pinned revision is applied, hence durable, so a read
 * never returns a revision that is not durable. A point read waits for what it saw the same way.
 * After a journal failure the index is rolled back to the durable revision; a read that
 * overlapped the roll-back starts over.
 *
 * <p>Thread-safe; any reader thread. Allocates the result (heap copies of keys and values).
 */
public final class RangeReader
{
    private final OffHeapIndex index;
    private final UndoLog undo;
    private final RevisionCursor cursor;
    private final boolean awaitDurable;
    private final ThreadLocal<IndexEntry> entries = ThreadLocal.withInitial(IndexEntry::new);

    /**
     * @param index        the index to read.
     * @param undo         keeps the pre-images pinned reads need.
     * @param cursor       the writer's progress.
     * @param awaitDurable true in a SYNC engine: a point read returns only once what it saw is
     *                     durable (range reads are pinned at a visible revision).
     */
    public RangeReader(final OffHeapIndex index, final UndoLog undo, final RevisionCursor cursor,
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
        while (true)
        {
            try (PinnedRead read = PinnedRead.open(undo, cursor))
            {
                final long at = read.revision();
                final List<byte[]> keys = new ChunkedList<>();
                final List<KeyValue> scanned = new ChunkedList<>();
                scan(range, limit <= 0 ? 0 : limit + 1, at, keys, scanned);
                final byte[] cut = limit > 0 && scanned.size() > limit ? keys.get(keys.size() - 1) : null;
                if (!read.awaitScanned())
                {
                    continue;
                }
                final List<PreImage> undone = new ChunkedList<>();
                read.undoneSince(range, (buffer, keyOffset, keyLength, valueOffset, valueLength,
                    createRevision, modRevision, version) ->
                {
                    final byte[] key = new byte[keyLength];
                    buffer.getBytes(keyOffset, key);
                    if (cut == null || Keys.compare(key, cut) <= 0)
                    {
                        undone.add(new PreImage(key, PinnedRead.preImage(key, buffer, valueOffset, valueLength,
                            createRevision, modRevision, version)));
                    }
                });
                if (!read.isStable())
                {
                    continue;
                }
                final List<KeyValue> kvs = merge(keys, scanned, undone);
                if (limit > 0 && kvs.size() > limit)
                {
                    return new RangeResult(at, new ArrayList<>(kvs.subList(0, limit)), true);
                }
                return new RangeResult(at, kvs, false);
            }
        }
    }

    /** Collects the range's entries unchanged since {@code at}, in key order, up to {@code keep}. */
    private void scan(
        final KeyRange range, final int keep, final long at, final List<byte[]> keys, final List<KeyValue> scanned)
    {
        final byte[] from = range.fromKey();
        if (range.isSingleKey())
        {
            final IndexEntry entry = entries.get();
            if (index.get(new UnsafeBuffer(from), 0, from.length, entry) && entry.modRevision() <= at)
            {
                add(entry, keys, scanned);
            }
            return;
        }
        final byte[] to = range.toKey();
        index.scan(new UnsafeBuffer(from), 0, from.length, to == null ? null : new UnsafeBuffer(to), 0,
            to == null ? 0 : to.length, 0, entry ->
            {
                if (entry.modRevision() <= at)
                {
                    add(entry, keys, scanned);
                }
                return keep == 0 || scanned.size() < keep;
            });
    }

    /**
     * Merges the scan (keys unchanged since the pin, in key order) with the pre-images (keys
     * changed since, in the order the writer kept them, oldest first); a key's oldest pre-image
     * wins and an absent one removes its key. The pre-images are sorted once, stably, rather than
     * kept in a tree: the writer keeps them in the order it changed the keys, often nearly key
     * order, which a merge sort takes in close to linear time.
     */
    private static List<KeyValue> merge(final List<byte[]> keys, final List<KeyValue> scanned, final List<PreImage> undone)
    {
        if (undone.isEmpty())
        {
            return scanned;
        }
        undone.sort(PreImage.BY_KEY);
        final int changed = undone.size();
        final List<KeyValue> kvs = new ArrayList<>(scanned.size() + changed);
        int u = 0;
        for (int i = 0, n = scanned.size(); i < n; i++)
        {
            final byte[] key = keys.get(i);
            while (u < changed && Keys.compare(undone.get(u).key, key) < 0)
            {
                u = addOldest(kvs, undone, u);
            }
            if (u < changed && Keys.compare(undone.get(u).key, key) == 0)
            {
                u = addOldest(kvs, undone, u);
            }
            else
            {
                kvs.add(scanned.get(i));
            }
        }
        while (u < changed)
        {
            u = addOldest(kvs, undone, u);
        }
        return kvs;
    }

    /**
     * Adds the pre-image at {@code first}, the oldest of its key after the stable sort, and skips
     * that key's later ones.
     *
     * @return the index of the next key's first pre-image.
     */
    private static int addOldest(final List<KeyValue> kvs, final List<PreImage> undone, final int first)
    {
        final PreImage oldest = undone.get(first);
        addPresent(kvs, oldest.kv);
        int next = first + 1;
        while (next < undone.size() && Keys.compare(undone.get(next).key, oldest.key) == 0)
        {
            next++;
        }
        return next;
    }

    private static void addPresent(final List<KeyValue> kvs, final KeyValue kv)
    {
        if (kv != PinnedRead.ABSENT)
        {
            kvs.add(kv);
        }
    }

    private static void add(final IndexEntry entry, final List<byte[]> keys, final List<KeyValue> scanned)
    {
        final byte[] key = entry.keyBytes();
        keys.add(key);
        scanned.add(new KeyValue(key, entry.valueBytes(), entry.createRevision(), entry.modRevision(), entry.version()));
    }

    private static KeyValue toKeyValue(final IndexEntry entry)
    {
        return new KeyValue(entry.keyBytes(), entry.valueBytes(), entry.createRevision(), entry.modRevision(), entry.version());
    }

    /** A changed key and its state at the pin ({@link PinnedRead#ABSENT} when it did not exist). */
    private static final class PreImage
    {
        static final Comparator<PreImage> BY_KEY = (a, b) -> Keys.compare(a.key, b.key);

        final byte[] key;
        final KeyValue kv;

        PreImage(final byte[] key, final KeyValue kv)
        {
            this.key = key;
            this.kv = kv;
        }
    }
}
