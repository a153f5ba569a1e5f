package io.ringwatch.persistence;

import static io.ringwatch.persistence.ExcerptLayout.CHANGE_FIXED_LENGTH;
import static io.ringwatch.persistence.ExcerptLayout.CREATE_REVISION;
import static io.ringwatch.persistence.ExcerptLayout.KEY_LENGTH;
import static io.ringwatch.persistence.ExcerptLayout.MOD_REVISION;
import static io.ringwatch.persistence.ExcerptLayout.PREV_CREATE_REVISION;
import static io.ringwatch.persistence.ExcerptLayout.PREV_MOD_REVISION;
import static io.ringwatch.persistence.ExcerptLayout.PREV_VALUE_LENGTH;
import static io.ringwatch.persistence.ExcerptLayout.LEASE;
import static io.ringwatch.persistence.ExcerptLayout.PREV_LEASE;
import static io.ringwatch.persistence.ExcerptLayout.PREV_VERSION;
import static io.ringwatch.persistence.ExcerptLayout.TYPE;
import static io.ringwatch.persistence.ExcerptLayout.VALUE_LENGTH;
import static io.ringwatch.persistence.ExcerptLayout.VERSION;
import static java.nio.ByteOrder.LITTLE_ENDIAN;

import org.agrona.DirectBuffer;

/**
 * A flyweight over one change of a {@link RevisionRecord}: the key, the new value and post-state
 * metadata, the previous value and its metadata. Valid until the owning record is read into again.
 * Single-threaded, like its record; no allocation.
 */
public final class ChangeView
{
    private DirectBuffer buffer;
    private int offset;

    ChangeView()
    {
    }

    void wrap(final DirectBuffer buffer, final int offset)
    {
        this.buffer = buffer;
        this.offset = offset;
    }

    /**
     * The buffer holding the key and value bytes; use with the offset and length accessors.
     *
     * @return the record's buffer.
     */
    public DirectBuffer buffer()
    {
        return buffer;
    }

    /**
     * The change type.
     *
     * @return {@link ChangeType#PUT} or {@link ChangeType#DELETE}.
     */
    public byte type()
    {
        return buffer.getByte(offset + TYPE);
    }

    /**
     * Where the key starts in {@link #buffer()}.
     *
     * @return the key offset.
     */
    public int keyOffset()
    {
        return offset + CHANGE_FIXED_LENGTH;
    }

    /**
     * The key length.
     *
     * @return the key length in bytes.
     */
    public int keyLength()
    {
        return buffer.getInt(offset + KEY_LENGTH, LITTLE_ENDIAN);
    }

    /**
     * Where the new value starts in {@link #buffer()}.
     *
     * @return the value offset.
     */
    public int valueOffset()
    {
        return keyOffset() + keyLength();
    }

    /**
     * The new value's length; 0 for a delete.
     *
     * @return the value length in bytes.
     */
    public int valueLength()
    {
        return buffer.getInt(offset + VALUE_LENGTH, LITTLE_ENDIAN);
    }

    /**
     * Where the previous value starts in {@link #buffer()}.
     *
     * @return the previous value offset.
     */
    public int prevValueOffset()
    {
        return valueOffset() + valueLength();
    }

    /**
     * The previous value's length; 0 when the key was absent or the engine stored none.
     *
     * @return the previous value length in bytes.
     */
    public int prevValueLength()
    {
        return buffer.getInt(offset + PREV_VALUE_LENGTH, LITTLE_ENDIAN);
    }

    /**
     * The key's create revision after the change; 0 for a delete.
     *
     * @return the create revision.
     */
    public long createRevision()
    {
        return buffer.getLong(offset + CREATE_REVISION, LITTLE_ENDIAN);
    }

    /**
     * The key's mod revision after the change; 0 for a delete.
     *
     * @return the mod revision.
     */
    public long modRevision()
    {
        return buffer.getLong(offset + MOD_REVISION, LITTLE_ENDIAN);
    }

    /**
     * The key's version after the change; 0 for a delete.
     *
     * @return the version.
     */
    public long version()
    {
        return buffer.getLong(offset + VERSION, LITTLE_ENDIAN);
    }

    /**
     * The key's create revision before the change; 0 when it was absent.
     *
     * @return the previous create revision.
     */
    public long prevCreateRevision()
    {
        return buffer.getLong(offset + PREV_CREATE_REVISION, LITTLE_ENDIAN);
    }

    /**
     * The key's mod revision before the change; 0 when it was absent.
     *
     * @return the previous mod revision.
     */
    public long prevModRevision()
    {
        return buffer.getLong(offset + PREV_MOD_REVISION, LITTLE_ENDIAN);
    }

    /**
     * The key's version before the change; 0 when it was absent.
     *
     * @return the previous version.
     */
    public long prevVersion()
    {
        return buffer.getLong(offset + PREV_VERSION, LITTLE_ENDIAN);
    }

    /**
     * The key's lease id after the change; 0 for none and for a DELETE.
     *
     * @return the lease id.
     */
    public long lease()
    {
        return buffer.getLong(offset + LEASE, LITTLE_ENDIAN);
    }

    /**
     * The key's lease id before the change; 0 for none or when the key was absent.
     *
     * @return the previous lease id.
     */
    public long prevLease()
    {
        return buffer.getLong(offset + PREV_LEASE, LITTLE_ENDIAN);
    }
}
