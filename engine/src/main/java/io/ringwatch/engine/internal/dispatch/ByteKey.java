package io.ringwatch.engine.internal.dispatch;

import java.util.Arrays;

/**
 * Key bytes with equality and hash over their content, for the route tables' hash maps. Stored keys own an
 * exact copy; a probe instance is rewrapped for each lookup so that lookups allocate nothing. The hash is
 * the polynomial {@code h = 31 * h + b} from 1, so the hashes of all prefixes of a key come out of one pass
 * over it ({@link #extendHash}), which is how {@link PrefixRoutes} probes every prefix length.
 * <p>
 * Not thread-safe: owned by one dispatcher thread with its routes.
 */
final class ByteKey
{
    /** The hash of the empty key, from which {@link #extendHash} starts. */
    static final int EMPTY_HASH = 1;

    private byte[] bytes;
    private int length;
    private int hash;

    private ByteKey(final byte[] bytes, final int length)
    {
        this.bytes = bytes;
        this.length = length;
        this.hash = hashOf(bytes, length);
    }

    /**
     * @param capacity the key length it holds before it must grow.
     * @return an empty probe to rewrap for lookups.
     */
    static ByteKey probe(final int capacity)
    {
        return new ByteKey(new byte[capacity], 0);
    }

    static ByteKey copyOf(final byte[] key)
    {
        return new ByteKey(key.clone(), key.length);
    }

    /**
     * @param key a key nobody changes from now on: kept, not copied.
     * @return the key.
     */
    static ByteKey sharing(final byte[] key)
    {
        return new ByteKey(key, key.length);
    }

    /**
     * @param hash the hash of a key.
     * @param next the byte that follows it.
     * @return the hash of the key extended by {@code next}.
     */
    static int extendHash(final int hash, final byte next)
    {
        return 31 * hash + next;
    }

    /**
     * Makes this probe the first {@code length} bytes of {@code key}, whose hash the caller computed:
     * no copy, no hashing. The probe must not outlive the caller's use of {@code key}.
     *
     * @return this probe.
     */
    ByteKey alias(final byte[] key, final int length, final int hash)
    {
        this.bytes = key;
        this.length = length;
        this.hash = hash;
        return this;
    }

    ByteKey wrap(final byte[] key)
    {
        ensureCapacity(key.length);
        System.arraycopy(key, 0, bytes, 0, key.length);
        return rehash(key.length);
    }

    private void ensureCapacity(final int required)
    {
        if (required > bytes.length)
        {
            bytes = new byte[Math.max(required, bytes.length * 2)];
        }
    }

    private ByteKey rehash(final int keyLength)
    {
        length = keyLength;
        hash = hashOf(bytes, keyLength);
        return this;
    }

    /**
     * @return the hash of the first {@code length} bytes of {@code bytes}, as a stored key of them has.
     */
    static int hashOf(final byte[] bytes, final int length)
    {
        int h = EMPTY_HASH;
        for (int i = 0; i < length; i++)
        {
            h = extendHash(h, bytes[i]);
        }
        return h;
    }

    @Override
    public boolean equals(final Object other)
    {
        if (!(other instanceof ByteKey))
        {
            return false;
        }
        final ByteKey that = (ByteKey)other;
        return hash == that.hash && Arrays.equals(bytes, 0, length, that.bytes, 0, that.length);
    }

    @Override
    public int hashCode()
    {
        return hash;
    }
}
