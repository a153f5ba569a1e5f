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
     * Hands this list's entries, without a copy, to a builder that takes them back to a past
     * revision: the builder appends to this list's arena and address array, so only a list
     * nobody else holds may be handed over, and it must not be read afterwards. Allocates the
     * builder.
     *
     * @return a {@link ReadResultBuilder#forPastRevision()} builder whose scanned entries are this list's.
     */
    ReadResultBuilder handOverToPastRevision()
    {
        return ReadResultBuilder.forPastRevision(arena, new AddressList(addresses, size));
    }

    @Override
    public int size()
    {
        return size;
    }
}
