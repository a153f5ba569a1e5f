package io.ringwatch.engine.internal.read;

import java.util.Arrays;

/**
 * A growable list of {@link KeyValueArena} addresses, one primitive array with no per-element
 * object, sortable by key. One thread. Allocates when it grows (by half again).
 */
final class AddressList
{
    /** Below this length a run is sorted by insertion, above it by merging halves. */
    private static final int INSERTION_SORT_MAX = 24;

    private long[] addresses;
    private int size;

    /**
     * @param initialCapacity addresses it holds before it first grows.
     */
    AddressList(final int initialCapacity)
    {
        addresses = new long[Math.max(initialCapacity, 16)];
    }

    /**
     * A list holding, without a copy, the first {@code size} elements of {@code addresses}; it
     * appends to that array until it is full.
     *
     * @param addresses handed over; no one else writes it afterwards.
     * @param size      how many of its elements are in the list.
     */
    AddressList(final long[] addresses, final int size)
    {
        this.addresses = addresses.length == 0 ? new long[16] : addresses;
        this.size = size;
    }

    /**
     * @param address appended at the end.
     */
    void add(final long address)
    {
        if (size == addresses.length)
        {
            addresses = Arrays.copyOf(addresses, size + (size >> 1));
        }
        addresses[size++] = address;
    }

    /**
     * @return the address at {@code index}.
     */
    long get(final int index)
    {
        return addresses[index];
    }

    /**
     * @return how many addresses it holds.
     */
    int size()
    {
        return size;
    }

    /**
     * @return the backing array, whose first {@link #size()} elements are the addresses.
     */
    long[] array()
    {
        return addresses;
    }

    /**
     * Sorts by key and, for equal keys, by address, that is in the order the entries were
     * appended. A merge sort that skips merging halves already in order, so the nearly sorted
     * input a writer's changes often are costs close to linear time. Allocates one scratch array.
     *
     * @param arena holds the entries.
     */
    void sortByKey(final KeyValueArena arena)
    {
        if (size > 1)
        {
            final long[] scratch = Arrays.copyOf(addresses, size);
            mergeSort(scratch, addresses, 0, size, arena);
        }
    }

    /** Sorts {@code source[from, to)} into {@code target[from, to)}; both start with the same elements. */
    private static void mergeSort(
        final long[] source, final long[] target, final int from, final int to, final KeyValueArena arena)
    {
        if (to - from <= INSERTION_SORT_MAX)
        {
            insertionSort(target, from, to, arena);
            return;
        }
        final int middle = (from + to) >>> 1;
        mergeSort(target, source, from, middle, arena);
        mergeSort(target, source, middle, to, arena);
        if (compare(source[middle - 1], source[middle], arena) <= 0)
        {
            System.arraycopy(source, from, target, from, to - from);
            return;
        }
        for (int i = from, left = from, right = middle; i < to; i++)
        {
            if (right >= to || left < middle && compare(source[left], source[right], arena) <= 0)
            {
                target[i] = source[left++];
            }
            else
            {
                target[i] = source[right++];
            }
        }
    }

    private static void insertionSort(final long[] a, final int from, final int to, final KeyValueArena arena)
    {
        for (int i = from + 1; i < to; i++)
        {
            final long moving = a[i];
            int j = i - 1;
            while (j >= from && compare(a[j], moving, arena) > 0)
            {
                a[j + 1] = a[j];
                j--;
            }
            a[j + 1] = moving;
        }
    }

    private static int compare(final long a, final long b, final KeyValueArena arena)
    {
        final int byKey = arena.compareKeys(a, b);
        return byKey != 0 ? byKey : Long.compare(a, b);
    }
}
