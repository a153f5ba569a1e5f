package io.ringwatch.ringbuffer;

import org.agrona.UnsafeApi;

/**
 * Copies a byte range whose bounds the caller has already checked (or holds by construction) from
 * one buffer's memory to another's, with no check per access: the writer's copies of a change's key,
 * value and previous value into the change record, and of the change's bytes into the window. A
 * short range (up to {@value #LOOP_LIMIT} bytes: a change of small keys and values) is copied eight
 * bytes at a time inline; a longer one by {@code Unsafe.copyMemory}. The inline loop spares the copy
 * stub's call, and keeps out of the caller's compiled code the checks {@code copyMemory} and Agrona's
 * {@code putBytes} add (about 500 bytes of bytecode each, counted against the JIT's inlining budget
 * for the whole write path). Any thread; allocates nothing. The ranges must not overlap.
 */
final class UncheckedCopy
{
    /** Longest range copied by the inline loop. */
    static final int LOOP_LIMIT = 256;

    private UncheckedCopy()
    {
    }

    /**
     * Copies {@code length} bytes between two base-and-offset addresses in {@code Unsafe}'s sense: an
     * array and its offset, or null and a native address. Neither range is checked.
     *
     * @param sourceBase   the source array, or null for native memory.
     * @param sourceOffset the source's offset in {@code sourceBase}, or its address.
     * @param targetBase   the target array, or null for native memory.
     * @param targetOffset the target's offset in {@code targetBase}, or its address.
     * @param length       bytes to copy, 0 or more.
     */
    static void copy(
        final byte[] sourceBase, final long sourceOffset, final byte[] targetBase, final long targetOffset, final int length)
    {
        if (length > LOOP_LIMIT)
        {
            UnsafeApi.copyMemory(sourceBase, sourceOffset, targetBase, targetOffset, length);
            return;
        }
        int i = 0;
        for (; i <= length - Long.BYTES; i += Long.BYTES)
        {
            UnsafeApi.putLong(targetBase, targetOffset + i, UnsafeApi.getLong(sourceBase, sourceOffset + i));
        }
        for (; i < length; i++)
        {
            UnsafeApi.putByte(targetBase, targetOffset + i, UnsafeApi.getByte(sourceBase, sourceOffset + i));
        }
    }
}
