package io.ringwatch.engine.kv;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * An immutable key-value pair with its etcd metadata: the revision that created the key, the
 * revision of its last modification, its version (1 on creation, +1 on every put, reset by
 * a delete) and the lease it is attached to (0: none). Returned by the convenient read and write API; owns copies of its bytes.
 * Thread-safe (immutable). Allocates its arrays once, on construction.
 */
public final class KeyValue
{
    private final byte[] key;
    private final byte[] value;
    private final long createRevision;
    private final long modRevision;
    private final long version;
    private final long lease;

    /**
     * @param key            the key bytes; not copied, the caller hands them over.
     * @param value          the value bytes; not copied, the caller hands them over.
     * @param createRevision revision that created the key.
     * @param modRevision    revision of the key's last modification.
     * @param version        number of puts since the key was created.
     */
    public KeyValue(final byte[] key, final byte[] value, final long createRevision, final long modRevision, final long version)
    {
        this(key, value, createRevision, modRevision, version, 0);
    }

    /**
     * @param key            the key bytes; not copied, the caller hands them over.
     * @param value          the value bytes; not copied, the caller hands them over.
     * @param createRevision revision that created the key.
     * @param modRevision    revision of the key's last modification.
     * @param version        number of puts since the key was created.
     * @param lease          id of the lease the key is attached to, 0 for none.
     */
    public KeyValue(
        final byte[] key, final byte[] value, final long createRevision, final long modRevision, final long version, final long lease)
    {
        this.key = key;
        this.value = value;
        this.createRevision = createRevision;
        this.modRevision = modRevision;
        this.version = version;
        this.lease = lease;
    }

    /**
     * @return a copy of the key bytes.
     */
    public byte[] key()
    {
        return key.clone();
    }

    /**
     * @return a copy of the value bytes.
     */
    public byte[] value()
    {
        return value.clone();
    }

    /**
     * @return the key decoded as UTF-8.
     */
    public String keyAsString()
    {
        return new String(key, StandardCharsets.UTF_8);
    }

    /**
     * @return the value decoded as UTF-8.
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
     * @return the number of puts since the key was created (1 after creation).
     */
    public long version()
    {
        return version;
    }

    /**
     * @return the id of the lease the key is attached to (etcd's {@code lease}), 0 for none.
     */
    public long lease()
    {
        return lease;
    }

    /**
     * @param other key bytes to compare with.
     * @return true when this pair's key equals {@code other}.
     */
    public boolean hasKey(final byte[] other)
    {
        return Arrays.equals(key, other);
    }

    @Override
    public boolean equals(final Object o)
    {
        if (this == o)
        {
            return true;
        }
        if (!(o instanceof KeyValue))
        {
            return false;
        }
        final KeyValue that = (KeyValue)o;
        return createRevision == that.createRevision && modRevision == that.modRevision &&
            version == that.version && lease == that.lease && Arrays.equals(key, that.key) && Arrays.equals(value, that.value);
    }

    @Override
    public int hashCode()
    {
        return 31 * Arrays.hashCode(key) + Long.hashCode(modRevision);
    }

    @Override
    public String toString()
    {
        return keyAsString() + "=" + valueAsString() +
            " (create=" + createRevision + ", mod=" + modRevision + ", version=" + version +
            (lease != 0 ? ", lease=" + lease : "") + ")";
    }
}
