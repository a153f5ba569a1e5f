package io.ringwatch.engine.internal.index;

import java.util.Arrays;

/**
 * Hash slots waiting to be inserted together: the slot contents ({@link SlotTable#slotFor}) of keys
 * an ordered load has linked into the arena and the skip list but not yet into the hash table.
 * Inserted one by one as they come, a million keys are a million random cache and TLB misses;
 * ordered by home slot first (one counting-sort pass on the tag's top bits, which order the homes in
 * a table of any size), the inserts walk the
 * table forward, a few kilobytes at a time.
 * <p>
 * Threads: the index's writer only. Allocation: two arrays of at most {@link #MAX_PENDING} longs,
 * grown while the load lasts; nothing per key.
 */
final class PendingSlots
{
    /** Most slots held before they must be inserted: 8 MiB of heap, twice (contents and sort space). */
    static final int MAX_PENDING = 1 << 20;
    private static final int BUCKET_BITS = 12;
    private static final int INITIAL_LENGTH = 1 << 10;

    private long[] contents = new long[INITIAL_LENGTH];
    private long[] sorted = new long[INITIAL_LENGTH];
    private final int[] bucketStarts = new int[(1 << BUCKET_BITS) + 1];
    private int count;

    /**
     * @return slots waiting.
     */
    int count()
    {
        return count;
    }

    /**
     * @return whether {@link #MAX_PENDING} slots are waiting.
     */
    boolean isFull()
    {
        return count == MAX_PENDING;
    }

    /**
     * Adds one slot content; the caller inserts the waiting slots before {@link #isFull}.
     */
    void add(final long content)
    {
        if (count == contents.length)
        {
            contents = Arrays.copyOf(contents, Math.min(MAX_PENDING, count * 2));
        }
        contents[count++] = content;
    }

    /**
     * @return the waiting contents, in {@code [0, count())}.
     */
    long[] contents()
    {
        return contents;
    }

    /**
     * Orders the waiting contents by their home slot's top bits in a table of {@code capacity}
     * slots (homes grow with the unsigned tag, so the tag's top bits order them): enough order for
     * the inserts to walk the table forward. A table of at most 2^12 slots is left as it is.
     */
    void sortByHome(final int capacity)
    {
        if (capacity <= 1 << BUCKET_BITS || count < 2)
        {
            return;
        }
        final int[] starts = bucketStarts;
        Arrays.fill(starts, 0);
        for (int i = 0; i < count; i++)
        {
            starts[bucketOf(contents[i]) + 1]++;
        }
        for (int b = 1; b < starts.length; b++)
        {
            starts[b] += starts[b - 1];
        }
        if (sorted.length < contents.length)
        {
            sorted = new long[contents.length];
        }
        for (int i = 0; i < count; i++)
        {
            sorted[starts[bucketOf(contents[i])]++] = contents[i];
        }
        final long[] swap = contents;
        contents = sorted;
        sorted = swap;
    }

    /**
     * Forgets the waiting contents (after they were inserted).
     */
    void clear()
    {
        count = 0;
    }

    private static int bucketOf(final long content)
    {
        return SlotTable.tagOf(content) >>> (Integer.SIZE - BUCKET_BITS);
    }
}
