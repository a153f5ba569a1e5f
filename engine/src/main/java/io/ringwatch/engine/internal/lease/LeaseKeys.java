package io.ringwatch.engine.internal.lease;

import org.agrona.DirectBuffer;

import java.util.Arrays;

/**
 * The keys attached to one lease, as an array of key copies: one array reference per key and no
 * node objects, so a lease with one key costs the key's copy and a one-slot array.
 * <p>
 * Up to {@value #SORTED_MAX} keys the array is kept sorted (an insert or removal moves at most that
 * many references). Beyond, a lease of many keys (Kubernetes attaches a minute's Events to one) gets
 * a {@link KeyIndex}: adds append and removals move the last key into the gap, both amortised O(1),
 * and the array is sorted once when it is next read in key order ({@link #get}), which a revoke or
 * expiry does once for all its keys. Writer thread only.
 */
final class LeaseKeys
{
    /** The most keys kept sorted on every change, without an index. */
    static final int SORTED_MAX = 16;
    private static final byte[][] EMPTY = new byte[0][];

    private byte[][] keys = EMPTY;
    private int size;
    /** Null while the lease holds at most {@link #SORTED_MAX} keys (the array then sorted). */
    private KeyIndex index;

    int size()
    {
        return size;
    }

    /**
     * @param i from 0 to {@link #size()} - 1.
     * @return the i-th key in key order; sorts the keys first if changed since (allocates nothing
     *         below {@link #SORTED_MAX} keys).
     */
    byte[] get(final int i)
    {
        if (index != null && !index.sorted)
        {
            Arrays.sort(keys, 0, size, LeaseKeys::compare);
            index.rebuild(keys, size);
        }
        return keys[i];
    }

    /** Adds a copy of the key unless present; allocates the copy (and a larger array when full). */
    void add(final DirectBuffer key, final int keyLength)
    {
        if (index != null)
        {
            if (index.find(keys, key, keyLength) < 0)
            {
                grow();
                keys[size] = copy(key, keyLength);
                index.add(keys, size);
                size++;
            }
            return;
        }
        final int at = find(key, keyLength);
        if (at >= 0)
        {
            return;
        }
        final int insert = -at - 1;
        grow();
        System.arraycopy(keys, insert, keys, insert + 1, size - insert);
        keys[insert] = copy(key, keyLength);
        size++;
        if (size > SORTED_MAX)
        {
            index = new KeyIndex(keys, size);
        }
    }

    /** Removes the key if present; allocates nothing. */
    void remove(final DirectBuffer key, final int keyLength)
    {
        if (index != null)
        {
            final int at = index.find(keys, key, keyLength);
            if (at >= 0)
            {
                index.remove(keys, size, at);
                keys[at] = keys[size - 1];
                keys[--size] = null;
            }
            return;
        }
        final int at = find(key, keyLength);
        if (at < 0)
        {
            return;
        }
        System.arraycopy(keys, at + 1, keys, at, size - at - 1);
        keys[--size] = null;
    }

    private void grow()
    {
        if (size == keys.length)
        {
            keys = Arrays.copyOf(keys, Math.max(1, size * 2));
        }
    }

    private static byte[] copy(final DirectBuffer key, final int keyLength)
    {
        final byte[] copy = new byte[keyLength];
        key.getBytes(0, copy);
        return copy;
    }

    /** @return the key's index, or -(insertion point) - 1 when absent (as {@link Arrays#binarySearch}). */
    private int find(final DirectBuffer key, final int keyLength)
    {
        int low = 0;
        int high = size - 1;
        while (low <= high)
        {
            final int mid = (low + high) >>> 1;
            final int cmp = compare(keys[mid], key, keyLength);
            if (cmp < 0)
            {
                low = mid + 1;
            }
            else if (cmp > 0)
            {
                high = mid - 1;
            }
            else
            {
                return mid;
            }
        }
        return -(low + 1);
    }

    /** Unsigned byte order, a shorter prefix first: the index's key order. */
    private static int compare(final byte[] a, final DirectBuffer b, final int bLength)
    {
        final int common = Math.min(a.length, bLength);
        for (int i = 0; i < common; i++)
        {
            final int cmp = Integer.compare(a[i] & 0xFF, b.getByte(i) & 0xFF);
            if (cmp != 0)
            {
                return cmp;
            }
        }
        return Integer.compare(a.length, bLength);
    }

    /** The same order between two copies. */
    private static int compare(final byte[] a, final byte[] b)
    {
        return Arrays.compareUnsigned(a, b);
    }
}
