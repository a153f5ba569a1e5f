package io.ringwatch.informer;

import io.ringwatch.engine.kv.KeyValue;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * One object of an informer's local cache: a key-value with its etcd metadata, shared by the
 * cache and every handler, so reading it never copies. Immutable by contract: its value array is
 * never handed out. {@link #value()} is a read-only {@link ByteBuffer} (writes through it throw);
 * {@link #valueBuffer()} is an Agrona {@link DirectBuffer} over the same bytes for zero-copy
 * reads, whose type offers no setters: casting it to a mutable buffer and writing corrupts the
 * cache for everyone, which the informer's mutation detector reports (see
 * {@link InformerConfig.Builder#detectMutations}). Thread-safe to read from any thread.
 */
public final class CachedObject
{
    private final ObjectKey key;
    private final byte[] value;
    private final long createRevision;
    private final long modRevision;
    private final long version;
    /** CRC of the value taken when the object was made, when mutation detection is on; else 0. */
    private final int checksum;

    CachedObject(
        final ObjectKey key,
        final byte[] value,
        final long createRevision,
        final long modRevision,
        final long version,
        final int checksum)
    {
        this.key = key;
        this.value = value;
        this.createRevision = createRevision;
        this.modRevision = modRevision;
        this.version = version;
        this.checksum = checksum;
    }

    /**
     * @return the key (immutable; no allocation).
     */
    public ObjectKey key()
    {
        return key;
    }

    /**
     * @return a read-only view of the value (a new view object, no copy of the bytes); writing
     * through it throws {@link java.nio.ReadOnlyBufferException}.
     */
    public ByteBuffer value()
    {
        return ByteBuffer.wrap(value).asReadOnlyBuffer();
    }

    /**
     * Zero-copy access for Agrona users: a new {@link DirectBuffer} view over the value bytes,
     * from offset 0 for {@link #valueLength()} bytes. Never write through it.
     *
     * @return the view (allocates the small view object only).
     */
    public DirectBuffer valueBuffer()
    {
        return new UnsafeBuffer(value);
    }

    /**
     * @return a copy of the value bytes.
     */
    public byte[] valueBytes()
    {
        return value.clone();
    }

    /**
     * @return the value's length in bytes.
     */
    public int valueLength()
    {
        return value.length;
    }

    /**
     * @return the value decoded as UTF-8 (allocates the string).
     */
    public String valueAsString()
    {
        return new String(value, StandardCharsets.UTF_8);
    }

    /**
     * @return the revision that created the key.
     */
    public long createRevision()
    {
        return createRevision;
    }

    /**
     * @return the revision of the key's last modification.
     */
    public long modRevision()
    {
        return modRevision;
    }

    /**
     * @return the number of puts since the key was created.
     */
    public long version()
    {
        return version;
    }

    /**
     * @return the engine's key-value type holding copies of this object's bytes.
     */
    public KeyValue toKeyValue()
    {
        return new KeyValue(key.bytes(), value.clone(), createRevision, modRevision, version);
    }

    /**
     * @param other another object of the same key.
     * @return true when both are the same incarnation of the key (same create revision): a
     * change between them is an update, not a delete and a re-create.
     */
    boolean sameIncarnationAs(final CachedObject other)
    {
        return createRevision == other.createRevision;
    }

    int checksum()
    {
        return checksum;
    }

    byte[] valueArray()
    {
        return value;
    }

    @Override
    public String toString()
    {
        return key + "=" + valueAsString() + " (create=" + createRevision + ", mod=" + modRevision + ", version=" + version + ")";
    }
}
