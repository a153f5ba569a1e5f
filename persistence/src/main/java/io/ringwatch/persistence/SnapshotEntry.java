package io.ringwatch.persistence;

import org.agrona.DirectBuffer;
import org.agrona.ExpandableDirectByteBuffer;

/**
 * One key's state read from a snapshot: a flyweight over a private buffer, valid until the next
 * {@link SnapshotReader#next(SnapshotEntry)} into it. One thread at a time; no allocation in steady
 * state (the buffer grows only for an entry larger than any before).
 */
public final class SnapshotEntry
{
    private final ExpandableDirectByteBuffer buffer = new ExpandableDirectByteBuffer(256);
    private int keyLength;
    private int valueLength;
    private long createRevision;
    private long modRevision;
    private long version;
    private long lease;

    /**
     * Creates an empty entry to read into. Any thread; allocates its buffer.
     */
    public SnapshotEntry()
    {
    }

    ExpandableDirectByteBuffer prepare(
        final int keyLength, final int valueLength, final long createRevision, final long modRevision, final long version,
        final long lease)
    {
        this.lease = lease;
        buffer.checkLimit(keyLength + valueLength);
        this.keyLength = keyLength;
        this.valueLength = valueLength;
        this.createRevision = createRevision;
        this.modRevision = modRevision;
        this.version = version;
        return buffer;
    }

    /**
     * The buffer holding the key at offset 0 and the value right after it.
     *
     * @return the entry's buffer.
     */
    public DirectBuffer buffer()
    {
        return buffer;
    }

    /**
     * The key length; the key starts at offset 0 of {@link #buffer()}.
     *
     * @return the key length in bytes.
     */
    public int keyLength()
    {
        return keyLength;
    }

    /**
     * Where the value starts in {@link #buffer()}.
     *
     * @return the value offset, equal to the key length.
     */
    public int valueOffset()
    {
        return keyLength;
    }

    /**
     * The value length.
     *
     * @return the value length in bytes.
     */
    public int valueLength()
    {
        return valueLength;
    }

    /**
     * The key's create revision.
     *
     * @return the create revision.
     */
    public long createRevision()
    {
        return createRevision;
    }

    /**
     * The key's mod revision.
     *
     * @return the mod revision.
     */
    public long modRevision()
    {
        return modRevision;
    }

    /**
     * The key's version.
     *
     * @return the version.
     */
    public long version()
    {
        return version;
    }

    /**
     * The key's lease id, 0 for none (and for every entry of a format-1 snapshot).
     *
     * @return the lease id.
     */
    public long lease()
    {
        return lease;
    }
}
