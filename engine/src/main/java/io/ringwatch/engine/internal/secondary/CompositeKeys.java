package io.ringwatch.engine.internal.secondary;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * The key layout of a secondary index: {@code [index value length: u16 big-endian][index value][key]}.
 * A length prefix rather than a separator byte, so index values and keys may hold any byte and
 * the entries of one index value are exactly one prefix range. Stateless.
 */
final class CompositeKeys
{
    static final int LENGTH_BYTES = 2;

    private CompositeKeys()
    {
    }

    /** Writes the composite key of ({@code values[i]}, key) at 0 of {@code into}; returns its length. */
    static int encode(
        final MutableDirectBuffer into, final IndexValues values, final int i,
        final DirectBuffer key, final int keyOffset, final int keyLength)
    {
        final int valueLength = values.length(i);
        into.putShort(0, (short)valueLength, ByteOrder.BIG_ENDIAN);
        into.putBytes(LENGTH_BYTES, values.buffer(), values.offset(i), valueLength);
        into.putBytes(LENGTH_BYTES + valueLength, key, keyOffset, keyLength);
        return LENGTH_BYTES + valueLength + keyLength;
    }

    /** The prefix every composite key of {@code indexValue} starts with. Allocates it. */
    static byte[] prefix(final byte[] indexValue)
    {
        final byte[] prefix = new byte[LENGTH_BYTES + indexValue.length];
        prefix[0] = (byte)(indexValue.length >>> 8);
        prefix[1] = (byte)indexValue.length;
        System.arraycopy(indexValue, 0, prefix, LENGTH_BYTES, indexValue.length);
        return prefix;
    }

    /** The index value's length inside a composite key. */
    static int valueLength(final DirectBuffer composite)
    {
        return composite.getShort(0, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }
}
