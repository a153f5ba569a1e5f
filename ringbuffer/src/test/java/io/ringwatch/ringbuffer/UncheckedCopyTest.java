package io.ringwatch.ringbuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

class UncheckedCopyTest
{
    private static final int MOST = 2 * UncheckedCopy.LOOP_LIMIT + 9;

    @Test
    void copiesEveryLengthOnBothPathsBetweenHeapAndDirectMemoryAndNothingBeside()
    {
        final UnsafeBuffer heap = new UnsafeBuffer(new byte[MOST + 16]);
        final UnsafeBuffer direct = new UnsafeBuffer(ByteBuffer.allocateDirect(MOST + 16));
        for (int length = 0; length <= MOST; length++)
        {
            fill(heap, 1);
            fill(direct, 101);
            copy(heap, 3, direct, 5, length);
            assertCopied(heap, 3, direct, 5, length, 101);

            fill(heap, 7);
            fill(direct, 57);
            copy(direct, 1, heap, 6, length);
            assertCopied(direct, 1, heap, 6, length, 7);
        }
    }

    private static void copy(
        final UnsafeBuffer source, final int sourceOffset, final UnsafeBuffer target, final int targetOffset, final int length)
    {
        UncheckedCopy.copy(source.byteArray(), source.addressOffset() + sourceOffset, target.byteArray(),
            target.addressOffset() + targetOffset, length);
    }

    private static void fill(final UnsafeBuffer buffer, final int seed)
    {
        for (int i = 0; i < buffer.capacity(); i++)
        {
            buffer.putByte(i, (byte)(seed + i * 31));
        }
    }

    /** The target holds the source's bytes in its range and its own fill (from {@code seed}) outside it. */
    private static void assertCopied(
        final UnsafeBuffer source, final int sourceOffset, final UnsafeBuffer target, final int targetOffset, final int length,
        final int seed)
    {
        for (int i = 0; i < target.capacity(); i++)
        {
            final boolean inside = i >= targetOffset && i < targetOffset + length;
            final byte expected = inside ? source.getByte(sourceOffset + i - targetOffset) : (byte)(seed + i * 31);
            assertEquals(expected, target.getByte(i), "length " + length + ", byte " + i);
        }
    }
}
