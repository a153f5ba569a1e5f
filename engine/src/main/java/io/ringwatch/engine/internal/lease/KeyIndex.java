package io.ringwatch.engine.internal.lease;

import org.agrona.DirectBuffer;

import java.util.Arrays;

/**
 * A hash index over a {@link LeaseKeys} array of many keys: open addressing with linear probing,
 * each slot the key's position in the array plus one (0 for empty), at most half full. Finds, adds
 * and removes in expected O(1) without touching the other keys; tracks whether the array is still in
 * key order. Writer thread only; allocates only when it grows.
 */
final class KeyIndex
{
    private int[] slots;
    private int mask;
    private int used;
    /** Whether the array it indexes is in key order (true from a build until the next change). */
    boolean sorted;

    /** Indexes {@code keys[0..size)}, which are sorted. */
    KeyIndex(final byte[][] keys, final int size)
    {
        slots = new int[capacityFor(size)];
        mask = slots.length - 1;
        rebuild(keys, size);
    }

    /** Re-indexes {@code keys[0..size)} after they were sorted in place. */
    void rebuild(final byte[][] keys, final int size)
    {
        Arrays.fill(slots, 0);
        used = 0;
        for (int i = 0; i < size; i++)
        {
            insert(keys, i);
        }
        sorted = true;
    }

    /** @return the key's position in {@code keys}, or -1 when absent. */
    int find(final byte[][] keys, final DirectBuffer key, final int keyLength)
    {
        for (int i = hash(key, keyLength) & mask; slots[i] != 0; i = (i + 1) & mask)
        {
            final byte[] candidate = keys[slots[i] - 1];
            if (equal(candidate, key, keyLength))
            {
                return slots[i] - 1;
            }
        }
        return -1;
    }

    /** Indexes {@code keys[position]}, just appended (absent until now). */
    void add(final byte[][] keys, final int position)
    {
        if (2 * (used + 1) > slots.length)
        {
            slots = new int[slots.length * 2];
            mask = slots.length - 1;
            used = 0;
            for (int i = 0; i < position; i++)
            {
                insert(keys, i);
            }
        }
        insert(keys, position);
        sorted = false;
    }

    /**
     * Forgets {@code keys[at]}, which the caller then replaces with the last key,
     * {@code keys[size - 1]}: that key's slot is pointed at {@code at}.
     */
    void remove(final byte[][] keys, final int size, final int at)
    {
        clear(keys, slotOf(keys, at));
        final int last = size - 1;
        if (at != last)
        {
            slots[slotOf(keys, last)] = at + 1;
            sorted = false;
        }
    }

    private void insert(final byte[][] keys, final int position)
    {
        int i = hash(keys[position]) & mask;
        while (slots[i] != 0)
        {
            i = (i + 1) & mask;
        }
        slots[i] = position + 1;
        used++;
    }

    private int slotOf(final byte[][] keys, final int position)
    {
        int i = hash(keys[position]) & mask;
        while (slots[i] != position + 1)
        {
            i = (i + 1) & mask;
        }
        return i;
    }

    /** Empties a slot and shifts back the entries after it that probed past it (no tombstones). */
    private void clear(final byte[][] keys, final int slot)
    {
        int gap = slot;
        slots[gap] = 0;
        used--;
        // Knuth's deletion for linear probing: an entry moves into the gap unless its home lies
        // cyclically in (gap, j], where it would be found without passing the gap.
        for (int j = (gap + 1) & mask; slots[j] != 0; j = (j + 1) & mask)
        {
            final int home = hash(keys[slots[j] - 1]) & mask;
            final boolean reachable = gap <= j ? gap < home && home <= j : gap < home || home <= j;
            if (!reachable)
            {
                slots[gap] = slots[j];
                slots[j] = 0;
                gap = j;
            }
        }
    }

    private static int hash(final DirectBuffer key, final int keyLength)
    {
        int h = 1;
        for (int i = 0; i < keyLength; i++)
        {
            h = 31 * h + key.getByte(i);
        }
        return mix(h);
    }

    private static int hash(final byte[] key)
    {
        return mix(Arrays.hashCode(key));
    }

    private static int mix(final int h)
    {
        final int spread = h * 0x9E3779B9;
        return spread ^ (spread >>> 16);
    }

    private static boolean equal(final byte[] a, final DirectBuffer b, final int bLength)
    {
        if (a.length != bLength)
        {
            return false;
        }
        for (int i = 0; i < bLength; i++)
        {
            if (a[i] != b.getByte(i))
            {
                return false;
            }
        }
        return true;
    }

    private static int capacityFor(final int size)
    {
        int capacity = 16;
        while (capacity < 2 * size)
        {
            capacity *= 2;
        }
        return capacity;
    }
}
