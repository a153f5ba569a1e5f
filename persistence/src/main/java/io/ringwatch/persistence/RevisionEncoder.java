package io.ringwatch.persistence;

import static io.ringwatch.persistence.ExcerptLayout.CHANGE_COUNT_OFFSET;
import static io.ringwatch.persistence.ExcerptLayout.CHANGE_FIXED_LENGTH;
import static io.ringwatch.persistence.ExcerptLayout.CREATE_REVISION;
import static io.ringwatch.persistence.ExcerptLayout.CRC_OFFSET;
import static io.ringwatch.persistence.ExcerptLayout.FORMAT_VERSION;
import static io.ringwatch.persistence.ExcerptLayout.HEADER_LENGTH;
import static io.ringwatch.persistence.ExcerptLayout.KEY_LENGTH;
import static io.ringwatch.persistence.ExcerptLayout.KIND_OFFSET;
import static io.ringwatch.persistence.ExcerptLayout.KIND_REVISION;
import static io.ringwatch.persistence.ExcerptLayout.MOD_REVISION;
import static io.ringwatch.persistence.ExcerptLayout.PREV_CREATE_REVISION;
import static io.ringwatch.persistence.ExcerptLayout.PREV_MOD_REVISION;
import static io.ringwatch.persistence.ExcerptLayout.PREV_VALUE_LENGTH;
import static io.ringwatch.persistence.ExcerptLayout.PREV_VERSION;
import static io.ringwatch.persistence.ExcerptLayout.REVISION_OFFSET;
import static io.ringwatch.persistence.ExcerptLayout.TIMESTAMP_OFFSET;
import static io.ringwatch.persistence.ExcerptLayout.TYPE;
import static io.ringwatch.persistence.ExcerptLayout.VALUE_LENGTH;
import static io.ringwatch.persistence.ExcerptLayout.VERSION;
import static io.ringwatch.persistence.ExcerptLayout.VERSION_OFFSET;
import static java.nio.ByteOrder.LITTLE_ENDIAN;

import java.util.zip.CRC32C;

import org.agrona.DirectBuffer;
import org.agrona.ExpandableDirectByteBuffer;

/**
 * Builds one revision excerpt in a reusable staging buffer, so the queue sees a single write per
 * revision. Writer thread only; allocation only when a revision is larger than any before it.
 */
final class RevisionEncoder
{
    private final ExpandableDirectByteBuffer buffer = new ExpandableDirectByteBuffer(4096);
    private final CRC32C crc = new CRC32C();
    private final int maxBytes;
    private boolean open;
    private long revision;
    private int changeCount;
    private int length;

    RevisionEncoder(final int maxBytes)
    {
        this.maxBytes = maxBytes;
    }

    boolean isOpen()
    {
        return open;
    }

    long revision()
    {
        return revision;
    }

    void begin(final long revision, final long timestampNanos)
    {
        buffer.putInt(CRC_OFFSET, 0, LITTLE_ENDIAN);
        buffer.putByte(VERSION_OFFSET, FORMAT_VERSION);
        buffer.putByte(KIND_OFFSET, KIND_REVISION);
        buffer.putShort(KIND_OFFSET + 1, (short)0, LITTLE_ENDIAN);
        buffer.putLong(REVISION_OFFSET, revision, LITTLE_ENDIAN);
        buffer.putLong(TIMESTAMP_OFFSET, timestampNanos, LITTLE_ENDIAN);
        this.revision = revision;
        this.changeCount = 0;
        this.length = HEADER_LENGTH;
        this.open = true;
    }

    /**
     * Appends one change; the caller has validated the arguments.
     *
     * @throws IllegalArgumentException if the revision would exceed the configured size cap.
     */
    void change(
        final byte type,
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength,
        final long createRevision, final long modRevision, final long version,
        final DirectBuffer prevValue, final int prevOffset, final int prevLength,
        final long prevCreateRevision, final long prevModRevision, final long prevVersion)
    {
        final long newLength = (long)length + CHANGE_FIXED_LENGTH + keyLength + valueLength + prevLength;
        if (newLength > maxBytes)
        {
            throw new IllegalArgumentException("revision " + revision + " would encode to " + newLength +
                " bytes, over the cap of " + maxBytes);
        }
        final int at = length;
        buffer.putByte(at + TYPE, type);
        buffer.putInt(at + KEY_LENGTH, keyLength, LITTLE_ENDIAN);
        buffer.putInt(at + VALUE_LENGTH, valueLength, LITTLE_ENDIAN);
        buffer.putInt(at + PREV_VALUE_LENGTH, prevLength, LITTLE_ENDIAN);
        buffer.putLong(at + CREATE_REVISION, createRevision, LITTLE_ENDIAN);
        buffer.putLong(at + MOD_REVISION, modRevision, LITTLE_ENDIAN);
        buffer.putLong(at + VERSION, version, LITTLE_ENDIAN);
        buffer.putLong(at + PREV_CREATE_REVISION, prevCreateRevision, LITTLE_ENDIAN);
        buffer.putLong(at + PREV_MOD_REVISION, prevModRevision, LITTLE_ENDIAN);
        buffer.putLong(at + PREV_VERSION, prevVersion, LITTLE_ENDIAN);
        // Changes encoded here carry no lease; the engine's journal copies its ChangeRecord's leases.
        buffer.putLong(at + ExcerptLayout.LEASE, 0, LITTLE_ENDIAN);
        buffer.putLong(at + ExcerptLayout.PREV_LEASE, 0, LITTLE_ENDIAN);
        int bytesAt = at + CHANGE_FIXED_LENGTH;
        buffer.putBytes(bytesAt, key, keyOffset, keyLength);
        bytesAt += keyLength;
        if (valueLength > 0)
        {
            buffer.putBytes(bytesAt, value, valueOffset, valueLength);
            bytesAt += valueLength;
        }
        if (prevLength > 0)
        {
            buffer.putBytes(bytesAt, prevValue, prevOffset, prevLength);
        }
        length = (int)newLength;
        changeCount++;
    }

    /**
     * Builds a whole revision from changes already in the per-change layout: the header, then the
     * change bytes copied as they are; then seals it like {@link #finish()}. The caller has
     * validated the arguments and no revision is open.
     *
     * @return the excerpt's length; the bytes are at {@link #address()}.
     * @throws IllegalArgumentException if the revision would exceed the configured size cap.
     */
    int encode(
        final long revision,
        final long timestampNanos,
        final DirectBuffer changes,
        final int offset,
        final int changesLength,
        final int changeCount)
    {
        final long newLength = (long)HEADER_LENGTH + changesLength;
        if (newLength > maxBytes)
        {
            throw new IllegalArgumentException("revision " + revision + " would encode to " + newLength +
                " bytes, over the cap of " + maxBytes);
        }
        begin(revision, timestampNanos);
        buffer.putBytes(HEADER_LENGTH, changes, offset, changesLength);
        length = (int)newLength;
        this.changeCount = changeCount;
        return finish();
    }

    /**
     * Builds a SKIP excerpt ({@link ExcerptLayout}): revisions {@code from} to {@code to} will never
     * exist. No revision is open.
     *
     * @return the excerpt's length; the bytes are at {@link #address()}.
     */
    int encodeSkip(final long from, final long to, final long timestampNanos)
    {
        begin(to, timestampNanos);
        buffer.putByte(KIND_OFFSET, ExcerptLayout.KIND_SKIP);
        buffer.putLong(HEADER_LENGTH, from, LITTLE_ENDIAN);
        length = ExcerptLayout.SKIP_LENGTH;
        changeCount = 0;
        return finish();
    }

    /**
     * Seals the excerpt: change count and CRC. Returns its length; the bytes are at {@link #address()}.
     */
    int finish()
    {
        buffer.putInt(CHANGE_COUNT_OFFSET, changeCount, LITTLE_ENDIAN);
        buffer.putInt(CRC_OFFSET, ExcerptLayout.crc(crc, buffer, length), LITTLE_ENDIAN);
        open = false;
        return length;
    }

    void abandon()
    {
        open = false;
    }

    long address()
    {
        return buffer.addressOffset();
    }
}
