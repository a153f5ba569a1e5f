package io.ringwatch.engine.internal.index;

import org.agrona.DirectBuffer;

import java.util.Arrays;

/**
 * Key bytes with equality and hash over their content, for heap hash maps keyed by key (the
 * dispatchers' route tables, the keys a read at a past revision has met). Stored keys own an exact
 * copy; a probe instance is rewrapped for each lookup so that lookups allocate nothing. The hash is
 * the polynomial {@code h = 31 * h + b} from 1, so the hashes of all prefixes of a key come out of one
 * pass over it ({@link #extendHash}), which is how the dispatchers' prefix routes probe every prefix
 * length.
 * <p>
 * Not thread-safe: each instance is owned by one thread.
 */
public final class ByteKey
{
    /** The hash of the empty key, from which {@link #extendHash} starts. */
    public static final int EMPTY_HASH = 1;

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
    public static ByteKey probe(final int capacity)
    {
        return new ByteKey(new byte[capacity], 0);
    }

    /**
     * @param key a key.
     * @return a stored key holding an exact copy of it.
     */
    public static ByteKey copyOf(final byte[] key)
    {
        return new ByteKey(key.clone(), key.length);
    }

    /**
     * @param key a key nobody changes from now on: kept, not copied.
     * @return the key.
     */
    public static ByteKey sharing(final byte[] key)
    {
        return new ByteKey(key, key.length);
    }

    /**
     * @param hash the hash of a key.
     * @param next the byte that follows it.
     * @return the hash of the key extended by {@code next}.
     */
    public static int extendHash(final int hash, final byte next)
    {
        return 31 * hash + next;
    }

    /**
     * Makes this probe the first {@code length} bytes of {@code key}, whose hash the caller computed:
     * no copy, no hashing. The probe must not outlive the caller's use of {@code key}.
     *
     * @return this probe.
     */
    public ByteKey alias(final byte[] key, final int length, final int hash)
    {
        this.bytes = key;
        this.length = length;
        this.hash = hash;
        return this;
    }

    /**
     * Makes this probe {@code key}, copied.
     *
     * @return this probe.
     */
    public ByteKey wrap(final byte[] key)
    {
        ensureCapacity(key.length);
        System.arraycopy(key, 0, bytes, 0, key.length);
        return rehash(key.length);
    }

    /**
     * Makes this probe the first {@code length} bytes of {@code key}, copied.
     *
     * @return this probe.
     */
    public ByteKey wrap(final DirectBuffer key, final int length)
    {
        ensureCapacity(length);
        key.getBytes(0, bytes, 0, length);
        return rehash(length);
    }

    /**
     * @return a stored key holding an exact copy of this one's bytes (of a probe's, for keeping).
     */
    public ByteKey copy()
    {
        return new ByteKey(Arrays.copyOf(bytes, length), length);
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
    public static int hashOf(final byte[] bytes, final int length)
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
