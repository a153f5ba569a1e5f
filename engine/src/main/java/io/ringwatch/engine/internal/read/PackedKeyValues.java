package io.ringwatch.engine.internal.read;

import io.ringwatch.engine.kv.HandedOverKeyValues;
import io.ringwatch.engine.kv.KeyValue;

/**
 * A range read's result as a {@link KeyValueArena} and the addresses of its entries in key
 * order: immutable once built, read from any thread. {@link #get(int)} allocates the
 * {@link KeyValue} it returns (and its two arrays).
 */
final class PackedKeyValues extends HandedOverKeyValues
{
    private final KeyValueArena arena;
    private final long[] addresses;
    private final int size;

    /**
     * @param arena     holds the entries; no longer written.
     * @param addresses the entries in key order; handed over, not copied.
     * @param size      how many of {@code addresses} are in the list.
     */
    PackedKeyValues(final KeyValueArena arena, final long[] addresses, final int size)
    {
        this.arena = arena;
        this.addresses = addresses;
        this.size = size;
    }

    @Override
    public KeyValue get(final int index)
    {
        if (index < 0 || index >= size)
        {
            throw new IndexOutOfBoundsException("index " + index + " of " + size);
        }
        return arena.keyValue(addresses[index]);
    }

    /**
     * Adds every entry to a builder as scanned, copying bytes arena to arena (no {@link KeyValue}
     * made); allocates only the builder's chunks.
     *
     * @param builder receives the entries, in this list's (key) order.
     */
    void addAllScannedTo(final ReadResultBuilder builder)
    {
        for (int i = 0; i < size; i++)
        {
            builder.addScannedCopy(arena, addresses[i]);
        }
    }

    @Override
    public int size()
    {
        return size;
    }
}
