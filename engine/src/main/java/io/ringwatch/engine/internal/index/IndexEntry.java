package io.ringwatch.engine.internal.index;

import io.ringwatch.engine.direct.DirectEntry;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;

/**
 * Reusable holder for one index entry: key, value and etcd metadata (createRevision,
 * modRevision, version, lease); the {@link DirectEntry} that {@code RingWatch.newDirectEntry()} hands
 * out. The index copies into it, so its contents stay valid after the call returns and never
 * change under the holder.
 * <p>
 * One thread at a time; it also carries that thread's scan position, so do not share an instance
 * between concurrent calls. Buffers are Agrona {@link ExpandableArrayBuffer}s: once grown to the
 * largest key and value seen, reuse allocates nothing.
 */
public final class IndexEntry implements DirectEntry
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

    @Override
    public boolean found()
    {
        return found;
    }

    @Override
    public DirectBuffer key()
    {
        return key;
    }

    @Override
    public int keyLength()
    {
        return keyLength;
    }

    @Override
    public DirectBuffer value()
    {
        return value;
    }

    @Override
    public int valueLength()
    {
        return valueLength;
    }

    @Override
    public long createRevision()
    {
        return createRevision;
    }

    @Override
    public long modRevision()
    {
        return modRevision;
    }

    @Override
    public long version()
    {
        return version;
    }

    @Override
    public long lease()
    {
        return lease;
    }

    @Override
    public byte[] keyBytes()
    {
        final byte[] bytes = new byte[keyLength];
        key.getBytes(0, bytes);
        return bytes;
    }

    @Override
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
