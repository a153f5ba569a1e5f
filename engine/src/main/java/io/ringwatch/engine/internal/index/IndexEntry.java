package io.ringwatch.engine.internal.index;

import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;

/**
 * Reusable holder for one index entry: key, value and etcd metadata (createRevision,
 * modRevision, version, lease). The index copies into it, so its contents stay valid after the call
 * returns and never change under the holder.
 * <p>
 * One thread at a time; it also carries that thread's scan position, so do not share an instance
 * between concurrent calls. Buffers are Agrona {@link ExpandableArrayBuffer}s: once grown to the
 * largest key and value seen, reuse allocates nothing.
 */
public final class IndexEntry
{
    private final ExpandableArrayBuffer key = new ExpandableArrayBuffer(64);
    private final ExpandableArrayBuffer value = new ExpandableArrayBuffer(128);
    private final ScanCursor cursor = new ScanCursor();
    private boolean found;
    private int keyLength;
    private int valueLength;
    private long createRevision;
    private long modRevision;
    private long version;
    private long lease;

    /**
     * Creates an empty holder; allocates its two buffers. Any thread.
     */
    public IndexEntry()
    {
    }

    /**
     * @return whether the last call that filled this holder found an entry; false means the other
     *         accessors describe nothing.
     */
    public boolean found()
    {
        return found;
    }

    /**
     * @return buffer whose first {@link #keyLength()} bytes are the key; valid until the holder is
     *         reused; allocates nothing.
     */
    public DirectBuffer key()
    {
        return key;
    }

    /**
     * @return number of key bytes.
     */
    public int keyLength()
    {
        return keyLength;
    }

    /**
     * @return buffer whose first {@link #valueLength()} bytes are the value; valid until the
     *         holder is reused; allocates nothing.
     */
    public DirectBuffer value()
    {
        return value;
    }

    /**
     * @return number of value bytes.
     */
    public int valueLength()
    {
        return valueLength;
    }

    /**
     * @return revision at which the key was created (since its last deletion).
     */
    public long createRevision()
    {
        return createRevision;
    }

    /**
     * @return revision of the last change to the key.
     */
    public long modRevision()
    {
        return modRevision;
    }

    /**
     * @return number of changes since the key was created, 1 for a new key.
     */
    public long version()
    {
        return version;
    }

    /**
     * @return the id of the lease the key is attached to, 0 for none (etcd's {@code lease}).
     */
    public long lease()
    {
        return lease;
    }

    /**
     * Copies the key out; allocates the returned array. For convenience off the hot path.
     *
     * @return a new array holding the key.
     */
    public byte[] keyBytes()
    {
        final byte[] bytes = new byte[keyLength];
        key.getBytes(0, bytes);
        return bytes;
    }

    /**
     * Copies the value out; allocates the returned array. For convenience off the hot path.
     *
     * @return a new array holding the value.
     */
    public byte[] valueBytes()
    {
        final byte[] bytes = new byte[valueLength];
        value.getBytes(0, bytes);
        return bytes;
    }

    ExpandableArrayBuffer keyBuffer()
    {
        return key;
    }

    ExpandableArrayBuffer valueBuffer()
    {
        return value;
    }

    ScanCursor cursor()
    {
        return cursor;
    }

    void set(
        final int keyLength,
        final int valueLength,
        final long createRevision,
        final long modRevision,
        final long version,
        final long lease)
    {
        this.found = true;
        this.lease = lease;
        this.keyLength = keyLength;
        this.valueLength = valueLength;
        this.createRevision = createRevision;
        this.modRevision = modRevision;
        this.version = version;
    }

    void clear()
    {
        found = false;
        keyLength = 0;
        valueLength = 0;
        createRevision = 0;
        modRevision = 0;
        version = 0;
        lease = 0;
    }
}
