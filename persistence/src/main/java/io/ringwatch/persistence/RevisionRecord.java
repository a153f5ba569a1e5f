package io.ringwatch.persistence;

import static io.ringwatch.persistence.ExcerptLayout.CHANGE_COUNT_OFFSET;
import static io.ringwatch.persistence.ExcerptLayout.CHANGE_FIXED_LENGTH;
import static io.ringwatch.persistence.ExcerptLayout.HEADER_LENGTH;
import static io.ringwatch.persistence.ExcerptLayout.KEY_LENGTH;
import static io.ringwatch.persistence.ExcerptLayout.PREV_VALUE_LENGTH;
import static io.ringwatch.persistence.ExcerptLayout.REVISION_OFFSET;
import static io.ringwatch.persistence.ExcerptLayout.TIMESTAMP_OFFSET;
import static io.ringwatch.persistence.ExcerptLayout.TYPE;
import static io.ringwatch.persistence.ExcerptLayout.VALUE_LENGTH;
import static java.nio.ByteOrder.LITTLE_ENDIAN;

import org.agrona.DirectBuffer;
import org.agrona.ExpandableDirectByteBuffer;

/**
 * One revision read from the log: a flyweight over a private copy of the excerpt, so it stays valid
 * until the next {@link LogReader#next(RevisionRecord)} into it, whatever the queue does meanwhile.
 * <p>
 * Threading: one thread at a time. Allocation: none in steady state; the copy buffer and the change
 * offset table grow (doubling) only when a larger revision than any before arrives.
 */
public final class RevisionRecord
{
    private final ExpandableDirectByteBuffer buffer = new ExpandableDirectByteBuffer(1024);
    private final ChangeView change = new ChangeView();
    private int[] changeOffsets = new int[16];
    private int length;
    private int changeCount;

    /**
     * Creates an empty record to read into. Any thread; allocates its buffers.
     */
    public RevisionRecord()
    {
    }

    ExpandableDirectByteBuffer buffer()
    {
        return buffer;
    }

    /**
     * Indexes the changes of the excerpt now in the buffer, checking that every length stays inside it.
     *
     * @throws LogCorruptedException if a length points outside the excerpt (a CRC collision or a bug).
     */
    void index(final int excerptLength, final long queueIndex)
    {
        final int count = buffer.getInt(CHANGE_COUNT_OFFSET, LITTLE_ENDIAN);
        if (count < 0)
        {
            throw corrupted("negative change count " + count, queueIndex);
        }
        if (changeOffsets.length < count)
        {
            changeOffsets = new int[Math.max(count, changeOffsets.length * 2)];
        }
        int offset = HEADER_LENGTH;
        for (int i = 0; i < count; i++)
        {
            if (offset + CHANGE_FIXED_LENGTH > excerptLength)
            {
                throw corrupted("change " + i + " runs past the excerpt end", queueIndex);
            }
            final long bytes = (long)buffer.getInt(offset + KEY_LENGTH, LITTLE_ENDIAN) +
                buffer.getInt(offset + VALUE_LENGTH, LITTLE_ENDIAN) +
                buffer.getInt(offset + PREV_VALUE_LENGTH, LITTLE_ENDIAN);
            if (!ChangeType.isValid(buffer.getByte(offset + TYPE)) || bytes < 0 ||
                offset + CHANGE_FIXED_LENGTH + bytes > excerptLength)
            {
                throw corrupted("change " + i + " has a bad type or length", queueIndex);
            }
            changeOffsets[i] = offset;
            offset += CHANGE_FIXED_LENGTH + (int)bytes;
        }
        if (offset != excerptLength)
        {
            throw corrupted("excerpt has " + (excerptLength - offset) + " trailing bytes", queueIndex);
        }
        this.length = excerptLength;
        this.changeCount = count;
    }

    private static LogCorruptedException corrupted(final String what, final long queueIndex)
    {
        return new LogCorruptedException("Corrupt excerpt at queue index 0x" + Long.toHexString(queueIndex) + ": " + what);
    }

    /**
     * The revision this record holds.
     *
     * @return the revision.
     */
    public long revision()
    {
        return buffer.getLong(REVISION_OFFSET, LITTLE_ENDIAN);
    }

    /**
     * When the writer applied the revision.
     *
     * @return the timestamp in nanoseconds, as the engine passed it.
     */
    public long timestampNanos()
    {
        return buffer.getLong(TIMESTAMP_OFFSET, LITTLE_ENDIAN);
    }

    /**
     * How many changes the revision holds: 1 for a put, more for a txn or deleteRange.
     *
     * @return the change count.
     */
    public int changeCount()
    {
        return changeCount;
    }

    /**
     * The change at {@code i}, as a flyweight reused on every call: read it before asking for another.
     *
     * @param i from 0 to {@link #changeCount()} - 1.
     * @return the shared change view, positioned on change {@code i}.
     * @throws IndexOutOfBoundsException if {@code i} is out of range.
     */
    public ChangeView change(final int i)
    {
        if (i < 0 || i >= changeCount)
        {
            throw new IndexOutOfBoundsException("change " + i + " of " + changeCount);
        }
        change.wrap(buffer, changeOffsets[i]);
        return change;
    }

    /**
     * The whole excerpt, for tools that copy or hash it.
     *
     * @return the buffer; bytes {@code [0, encodedLength())} are the excerpt.
     */
    public DirectBuffer encoded()
    {
        return buffer;
    }

    /**
     * The excerpt's length.
     *
     * @return the number of bytes of {@link #encoded()} that hold the excerpt.
     */
    public int encodedLength()
    {
        return length;
    }
}
