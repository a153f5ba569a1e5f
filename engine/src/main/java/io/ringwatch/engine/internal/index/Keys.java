package io.ringwatch.engine.internal.index;

import java.nio.ByteOrder;

import org.agrona.DirectBuffer;

/**
 * Hashing and unsigned lexicographic comparison of key bytes. Any thread; allocates nothing.
 */
final class Keys
{
    private static final long P1 = 0x9E37_79B1_85EB_CA87L;
    private static final long P2 = 0xC2B2_AE3D_27D4_EB4FL;
    private static final long P3 = 0x1656_67B1_9E37_79F9L;

    private Keys()
    {
    }

    /**
     * 64-bit hash of a byte range: eight-byte lanes folded with multiply-rotate rounds, then an
     * avalanche so that every bit is well mixed: the low 32 are the hash slot's tag, whose top
     * bits choose its home.
     *
     * @param buffer holding the bytes.
     * @param offset of the first byte.
     * @param length number of bytes.
     * @return the hash.
     */
    static long hash(final DirectBuffer buffer, final int offset, final int length)
    {
        long acc = P3 + length * P1;
        int i = 0;
        for (; i + Long.BYTES <= length; i += Long.BYTES)
        {
            acc = round(acc, buffer.getLong(offset + i, ByteOrder.LITTLE_ENDIAN));
        }
        long tail = 0;
        for (; i < length; i++)
        {
            tail = tail << 8 | (buffer.getByte(offset + i) & 0xFF);
        }
        acc = round(acc, tail);
        acc ^= acc >>> 33;
        acc *= P2;
        acc ^= acc >>> 29;
        acc *= P3;
        return acc ^ acc >>> 32;
    }

    /**
     * Compares two byte ranges as unsigned bytes, a shorter prefix first.
     *
     * @return negative, zero or positive as the first range sorts before, equal to or after the
     *         second.
     */
    static int compare(
        final DirectBuffer a, final int aOffset, final int aLength,
        final DirectBuffer b, final int bOffset, final int bLength)
    {
        final int common = Math.min(aLength, bLength);
        int i = 0;
        for (; i + Long.BYTES <= common; i += Long.BYTES)
        {
            final long x = a.getLong(aOffset + i, ByteOrder.BIG_ENDIAN);
            final long y = b.getLong(bOffset + i, ByteOrder.BIG_ENDIAN);
            if (x != y)
            {
                return Long.compareUnsigned(x, y);
            }
        }
        for (; i < common; i++)
        {
            final int x = a.getByte(aOffset + i) & 0xFF;
            final int y = b.getByte(bOffset + i) & 0xFF;
            if (x != y)
            {
                return x - y;
            }
        }
        return Integer.compare(aLength, bLength);
    }

    private static long round(final long acc, final long lane)
    {
        return Long.rotateLeft(acc ^ Long.rotateLeft(lane * P2, 31) * P1, 27) * P1 + P3;
    }
}
