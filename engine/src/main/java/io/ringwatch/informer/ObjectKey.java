package io.ringwatch.informer;

import io.ringwatch.engine.errors.InvalidRequestException;
import io.ringwatch.engine.kv.Keys;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The key of a cached object: immutable bytes that are never handed out (readers get copies or
 * read-only views), with the hash computed once, so it is a cheap map key. Ordered as etcd orders
 * keys (unsigned bytes). Thread-safe (immutable).
 */
public final class ObjectKey implements Comparable<ObjectKey>
{
    private final byte[] bytes;
    private final int hash;

    private ObjectKey(final byte[] bytes)
    {
        this.bytes = bytes;
        this.hash = Arrays.hashCode(bytes);
    }

    /**
     * Copies {@code key} into a new key. Allocates the copy.
     *
     * @param key the key bytes; not empty.
     * @return the key.
     * @throws InvalidRequestException if {@code key} is null or empty.
     */
    public static ObjectKey of(final byte[] key)
    {
        if (key == null || key.length == 0)
        {
            throw new InvalidRequestException("key must be neither null nor empty");
        }
        return new ObjectKey(key.clone());
    }

    /**
     * @param key the key, UTF-8 encoded; not empty.
     * @return the key.
     * @throws InvalidRequestException if {@code key} is null or empty.
     */
    public static ObjectKey of(final String key)
    {
        return of(Keys.utf8(key));
    }

    /**
     * Takes ownership of {@code bytes} without copying: only for arrays nobody else holds.
     */
    static ObjectKey adopt(final byte[] bytes)
    {
        return new ObjectKey(bytes);
    }

    /**
     * @return a copy of the key bytes.
     */
    public byte[] bytes()
    {
        return bytes.clone();
    }

    /**
     * @return a read-only view of the key bytes (a new view object, no copy of the bytes).
     */
    public ByteBuffer asReadOnlyBuffer()
    {
        return ByteBuffer.wrap(bytes).asReadOnlyBuffer();
    }

    /**
     * @return the key's length in bytes.
     */
    public int length()
    {
        return bytes.length;
    }

    /**
     * @param other key bytes.
     * @return true when this key holds exactly {@code other}.
     */
    public boolean matches(final byte[] other)
    {
        return Arrays.equals(bytes, other);
    }

    /**
     * @return the key decoded as UTF-8.
     */
    public String asString()
    {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    @Override
    public int compareTo(final ObjectKey other)
    {
        return Arrays.compareUnsigned(bytes, other.bytes);
    }

    @Override
    public boolean equals(final Object o)
    {
        return o instanceof ObjectKey && hash == ((ObjectKey)o).hash && Arrays.equals(bytes, ((ObjectKey)o).bytes);
    }

    @Override
    public int hashCode()
    {
        return hash;
    }

    @Override
    public String toString()
    {
        return asString();
    }
}
