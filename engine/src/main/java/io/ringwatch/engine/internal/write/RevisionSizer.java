package io.ringwatch.engine.internal.write;

import io.ringwatch.engine.errors.RevisionTooLargeException;
import io.ringwatch.engine.spi.Journal;

/**
 * Measures what a revision will take in the journal before the writer changes anything, so a
 * revision over the journal's per-revision cap is refused whole ({@link RevisionTooLargeException})
 * instead of failing half applied. A write whose largest possible single change fits (the usual
 * put or delete of one key) is never measured: {@link #mustMeasureSingleChanges()} is false.
 * Writer thread only; allocates nothing.
 */
final class RevisionSizer
{
    private final Journal journal;
    private final long maxBytes;
    private final long headerBytes;
    private final boolean measureSingleChanges;
    private long bytes;

    /**
     * @param journal       the journal whose cap applies; null for an engine without one.
     * @param maxKeyBytes   the key limit.
     * @param maxValueBytes the value limit.
     */
    RevisionSizer(final Journal journal, final int maxKeyBytes, final int maxValueBytes)
    {
        this.journal = journal;
        this.maxBytes = journal == null ? Long.MAX_VALUE : journal.maxRevisionBytes();
        this.headerBytes = journal == null ? 0 : journal.revisionHeaderBytes();
        this.measureSingleChanges = isBounded() &&
            headerBytes + journal.changeBytes(maxKeyBytes, maxValueBytes, maxValueBytes) > maxBytes;
    }

    /**
     * @return true when the journal caps a revision's size, so multi-change writes are measured.
     */
    boolean isBounded()
    {
        return maxBytes != Long.MAX_VALUE;
    }

    /**
     * @return true when even a one-key put or delete can exceed the cap, so it is measured too.
     */
    boolean mustMeasureSingleChanges()
    {
        return measureSingleChanges;
    }

    /** Starts measuring a revision. */
    void begin()
    {
        bytes = headerBytes;
    }

    /**
     * Adds one change of the revision being measured.
     *
     * @param keyLength       the key's length.
     * @param valueLength     the new value's length, 0 for a delete.
     * @param prevValueLength the previous value's length, 0 when the key was absent.
     */
    void add(final int keyLength, final int valueLength, final int prevValueLength)
    {
        bytes += journal.changeBytes(keyLength, valueLength, prevValueLength);
    }

    /**
     * @throws RevisionTooLargeException if the revision measured so far is over the cap.
     */
    void check()
    {
        if (bytes > maxBytes)
        {
            throw new RevisionTooLargeException(bytes, maxBytes);
        }
    }
}
