package io.ringwatch.engine.internal.read;

import io.ringwatch.engine.internal.index.IndexEntry;
import io.ringwatch.engine.kv.RangeResult;
import org.agrona.DirectBuffer;

/**
 * Collects one read's result and merges it: the scanned entries (added in key order) and the
 * pre-images of the keys changed since the read's revision (added oldest first). Two kinds:
 * <ul>
 *   <li>{@link #forLiveScan()}, a pinned scan of the live index: a scanned entry (its version no
 *       newer than the pin, so nothing changed the key between the pin and the scan) is the key's
 *       state at the pin, and its key's pre-images are ignored: the writer may have skipped the
 *       key's changes once the scan had passed it and kept a later one for another read. Any other
 *       key takes its oldest pre-image, unless that says "absent" or is newer than the pin (the key
 *       was created after the pin, once the scan had passed it, then changed again for another
 *       read), which leave it out.</li>
 *   <li>{@link #forPastRevision()}, a newer result taken back to an older revision: the scanned
 *       entries are the newer state, and a key's oldest pre-image replaces its entry, one that
 *       says "absent" removing the key.</li>
 * </ul>
 * Everything lives in one {@link KeyValueArena} and primitive address
 * lists, so a million-key read makes a few hundred heap objects rather than three million.
 *
 * <p>One reader thread; the result it builds is immutable. Allocates the arena's chunks and the
 * address arrays as they grow.
 */
public final class ReadResultBuilder
{
    /** Addresses a read's lists start with: a small read allocates little, a large one grows by half. */
    private static final int INITIAL_ADDRESSES = 64;
    /** Stands for "no limit cut the scan" among addresses, which are never negative. */
    private static final long NO_CUT = -1;

    private final boolean scanIsAtRevision;
    private final boolean keysOnly;
    private final KeyValueArena arena;
    private final AddressList scanned;
    private final AddressList undone = new AddressList(INITIAL_ADDRESSES);
    private long cut = NO_CUT;

    private ReadResultBuilder(
        final boolean scanIsAtRevision, final boolean keysOnly, final KeyValueArena arena, final AddressList scanned)
    {
        this.scanIsAtRevision = scanIsAtRevision;
        this.keysOnly = keysOnly;
        this.arena = arena;
        this.scanned = scanned;
    }

    /**
     * @return a builder for a pinned scan of the live index, whose scanned entries are the state at
     *         the pinned revision.
     */
    public static ReadResultBuilder forLiveScan()
    {
        return fresh(true, false);
    }

    /**
     * @return a {@link #forLiveScan()} builder that keeps no value, only keys and revisions: for a
     *         count, whose result's values are all empty (a million-key count copies no value).
     */
    public static ReadResultBuilder forLiveCount()
    {
        return fresh(true, true);
    }

    /**
     * @return a builder that takes a newer result (added as scanned) back to an older revision with
     *         the pre-images of what changed since.
     */
    public static ReadResultBuilder forPastRevision()
    {
        return fresh(false, false);
    }

    private static ReadResultBuilder fresh(final boolean scanIsAtRevision, final boolean keysOnly)
    {
        return new ReadResultBuilder(scanIsAtRevision, keysOnly, new KeyValueArena(), new AddressList(INITIAL_ADDRESSES));
    }

    /**
     * A {@link #forPastRevision()} builder that starts from a newer result's entries as scanned and
     * keeps adding to its arena: a past read of a large range copies nothing of the present one.
     *
     * @param arena   the newer result's arena; from now on written by this builder only.
     * @param scanned the newer result's addresses, in key order.
     * @return the builder.
     */
    static ReadResultBuilder forPastRevision(final KeyValueArena arena, final AddressList scanned)
    {
        return new ReadResultBuilder(false, false, arena, scanned);
    }

    /**
     * Adds an entry of the scan; entries must come in ascending key order.
     *
     * @param entry a current entry whose modRevision is at most the read's revision.
     */
    public void addScanned(final IndexEntry entry)
    {
        scanned.add(arena.append(entry.key(), 0, entry.keyLength(), entry.value(), 0, storedLength(entry.valueLength()),
            entry.createRevision(), entry.modRevision(), entry.version(), entry.lease()));
    }

    /**
     * @return how many entries the scan added.
     */
    public int scannedCount()
    {
        return scanned.size();
    }

    /**
     * Ends the result at the last scanned key: a scan cut short by a limit knows nothing beyond
     * it, so pre-images of later keys are left out.
     */
    public void cutAtLastScanned()
    {
        cut = scanned.size() == 0 ? NO_CUT : scanned.get(scanned.size() - 1);
    }

    /**
     * Adds a changed key's state at the read's revision.
     *
     * @param buffer         holds the key and the value.
     * @param keyOffset      where the key starts.
     * @param keyLength      its length.
     * @param valueOffset    where the value starts.
     * @param valueLength    its length, or -1 when the key is not in the result at the read's
     *                       revision.
     * @param createRevision the key's createRevision then.
     * @param modRevision    its modRevision then.
     * @param version        its version then.
     * @param lease          its lease id then, 0 for none.
     */
    public void addPreImage(
        final DirectBuffer buffer, final int keyOffset, final int keyLength, final int valueOffset, final int valueLength,
        final long createRevision, final long modRevision, final long version, final long lease)
    {
        addPreImage(buffer, keyOffset, keyLength, buffer, valueOffset, valueLength, createRevision, modRevision, version, lease);
    }

    /**
     * Adds a changed key's state at the read's revision, key and value in buffers of their own.
     *
     * @param key            holds the key.
     * @param keyOffset      where it starts.
     * @param keyLength      its length.
     * @param value          holds the value (ignored when absent).
     * @param valueOffset    where it starts.
     * @param valueLength    its length, or -1 when the key is not in the result at the read's
     *                       revision.
     * @param createRevision the key's createRevision then.
     * @param modRevision    its modRevision then.
     * @param version        its version then.
     * @param lease          its lease id then, 0 for none.
     */
    public void addPreImage(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength,
        final long createRevision, final long modRevision, final long version, final long lease)
    {
        final long address = arena.append(key, keyOffset, keyLength, value, valueOffset, storedLength(valueLength),
            createRevision, modRevision, version, lease);
        if (cut == NO_CUT || arena.compareKeys(address, cut) <= 0)
        {
            undone.add(address);
        }
    }

    /** @return the value length to store: none but "absent" (-1) for a count. */
    private int storedLength(final int valueLength)
    {
        return keysOnly ? Math.min(valueLength, 0) : valueLength;
    }

    /**
     * Merges what was added into the result.
     *
     * @param revision the revision the read is exact at.
     * @param limit    the most key-values to return; 0 for all.
     * @return the key-values in key order, with {@code more} set when the limit cut them.
     */
    public RangeResult build(final long revision, final int limit)
    {
        final AddressList kvs = merge(revision);
        final boolean more = limit > 0 && kvs.size() > limit;
        return new RangeResult(revision, new PackedKeyValues(arena, kvs.array(), more ? limit : kvs.size()), more);
    }

    /**
     * The pre-images are sorted once by key and order of keeping rather than kept in a tree: the
     * writer keeps them in the order it changed the keys, often nearly key order, which the merge
     * sort takes in close to linear time.
     */
    private AddressList merge(final long revision)
    {
        if (undone.size() == 0)
        {
            return scanned;
        }
        undone.sortByKey(arena);
        final int changed = undone.size();
        final AddressList kvs = new AddressList(scanned.size() + changed);
        int u = 0;
        for (int i = 0, n = scanned.size(); i < n; i++)
        {
            final long entry = scanned.get(i);
            while (u < changed && arena.compareKeys(undone.get(u), entry) < 0)
            {
                u = addOldest(kvs, u, revision);
            }
            if (u < changed && arena.compareKeys(undone.get(u), entry) == 0)
            {
                if (scanIsAtRevision)
                {
                    kvs.add(entry);
                    u = skipKey(u);
                }
                else
                {
                    u = addOldest(kvs, u, revision);
                }
            }
            else
            {
                kvs.add(entry);
            }
        }
        while (u < changed)
        {
            u = addOldest(kvs, u, revision);
        }
        return kvs;
    }

    /**
     * Adds the pre-image at {@code first}, the oldest of its key after the sort, unless it says
     * the key is absent or is newer than the read's revision, and skips that key's later ones.
     *
     * @return the index of the next key's first pre-image.
     */
    private int addOldest(final AddressList kvs, final int first, final long revision)
    {
        final long oldest = undone.get(first);
        if (!arena.isAbsent(oldest) && arena.modRevision(oldest) <= revision)
        {
            kvs.add(oldest);
        }
        return skipKey(first);
    }

    /** @return the index of the first pre-image after those of the key at {@code first}. */
    private int skipKey(final int first)
    {
        final long key = undone.get(first);
        int next = first + 1;
        while (next < undone.size() && arena.compareKeys(undone.get(next), key) == 0)
        {
            next++;
        }
        return next;
    }
}
