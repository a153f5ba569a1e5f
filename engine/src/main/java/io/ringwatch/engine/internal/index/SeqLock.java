package io.ringwatch.engine.internal.index;

import java.lang.invoke.VarHandle;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * Seqlock over a version word: the single writer makes it odd, writes, then makes it even again;
 * a reader copies between two even reads of the same value. The word is 32 bits and only ever
 * incremented, so a reader can mistake a rewritten block for the one it started to read only if
 * the writer changed that block 2^31 times while the reader was between its two reads.
 * <p>
 * Writer methods: the index's writer thread only. Reader methods: any thread. Nothing allocates.
 */
final class SeqLock
{
    private SeqLock()
    {
    }

    /**
     * Makes the version odd before the writer changes what it guards.
     *
     * @param buffer holding the version word.
     * @param offset of the version word.
     */
    static void beginWrite(final UnsafeBuffer buffer, final int offset)
    {
        buffer.putInt(offset, buffer.getInt(offset) + 1);
        // the odd version must be visible before any of the writes it guards
        VarHandle.storeStoreFence();
    }

    /**
     * Makes the version even again, publishing the writes since {@link #beginWrite}.
     *
     * @param buffer holding the version word.
     * @param offset of the version word.
     */
    static void endWrite(final UnsafeBuffer buffer, final int offset)
    {
        buffer.putIntRelease(offset, buffer.getInt(offset) + 1);
    }

    /**
     * Waits until no write is in progress and returns the even version to validate against.
     * The wait is bounded by the writer finishing one operation: it never waits for readers.
     *
     * @param buffer holding the version word.
     * @param offset of the version word.
     * @return the even version seen.
     */
    static int readBegin(final UnsafeBuffer buffer, final int offset)
    {
        int version;
        while (((version = buffer.getIntAcquire(offset)) & 1) != 0)
        {
            Thread.onSpinWait();
        }
        return version;
    }

    /**
     * Whether nothing was written since {@link #readBegin} returned {@code version}, so every
     * read made in between is consistent.
     *
     * @param buffer  holding the version word.
     * @param offset  of the version word.
     * @param version returned by {@link #readBegin}.
     * @return true when the reads in between saw one consistent state.
     */
    static boolean unchanged(final UnsafeBuffer buffer, final int offset, final int version)
    {
        // keeps the guarded reads before the re-read of the version
        VarHandle.acquireFence();
        return buffer.getIntVolatile(offset) == version;
    }
}
