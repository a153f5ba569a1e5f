package io.ringwatch.engine.internal.lease;

import org.agrona.DirectBuffer;

import java.util.Arrays;

/**
 * The keys attached to one lease, as a sorted array of key copies: one array reference per key
 * and no node objects, so a lease with one key costs the key's copy and a two-slot array. Adding
 * or removing shifts the array (a memory move): fine for the few keys a lease usually holds, and
 * still linear for a lease with many. Writer thread only.
 */
final class LeaseKeys
{
    private static final byte[][] EMPTY = new byte[0][];

    private byte[][] keys = EMPTY;
    private int size;

    int size()
    {
        return size;
    }

    byte[] get(final int i)
    {
        return keys[i];
    }

    /** Adds a copy of the key unless present; allocates the copy (and a larger array when full). */
    void add(final DirectBuffer key, final int keyLength)
    {
        final int at = find(key, keyLength);
        if (at >= 0)
        {
            return;
        }
        final int insert = -at - 1;
        if (size == keys.length)
        {
            keys = Arrays.copyOf(keys, Math.max(1, size * 2));
        }
        System.arraycopy(keys, insert, keys, insert + 1, size - insert);
        final byte[] copy = new byte[keyLength];
        key.getBytes(0, copy);
        keys[insert] = copy;
        size++;
    }

    /** Removes the key if present; allocates nothing. */
    void remove(final DirectBuffer key, final int keyLength)
    {
        final int at = find(key, keyLength);
        if (at < 0)
        {
            return;
        }
        System.arraycopy(keys, at + 1, keys, at, size - at - 1);
        keys[--size] = null;
    }

    /** @return the key's index, or -(insertion point) - 1 when absent (as {@link Arrays#binarySearch}). */
    private int find(final DirectBuffer key, final int keyLength)
    {
        int low = 0;
        int high = size - 1;
        while (low <= high)
        {
            final int mid = (low + high) >>> 1;
            final byte[] k = keys[mid];
            final int cmp = compare(k, key, keyLength);
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
}
