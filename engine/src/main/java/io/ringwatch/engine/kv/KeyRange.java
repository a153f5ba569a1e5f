package io.ringwatch.engine.kv;

import io.ringwatch.engine.errors.InvalidRequestException;
import org.agrona.DirectBuffer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Which keys a read, a delete or a watch is about: one key; the half-open range
 * [{@code from}, {@code to}); every key with a prefix; every key from a start on; or all keys
 * (etcd's key / range_end pair, with range_end "\0" spelled {@link #from(byte[])}).
 * Immutable and thread-safe; built once per request.
 */
public final class KeyRange
{
    /** Reads eight bytes of a key array as one big-endian long. */
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private static final byte[] EMPTY = new byte[0];
    private static final KeyRange ALL = new KeyRange(EMPTY, null, false);

    private final byte[] from;
    private final byte[] to;
    private final boolean single;

    private KeyRange(final byte[] from, final byte[] to, final boolean single)
    {
        this.from = from;
        this.to = to;
        this.single = single;
    }

    /**
     * @param key the one key.
     * @return a range holding exactly {@code key}.
     * @throws InvalidRequestException if the key is null or empty.
     */
    public static KeyRange key(final byte[] key)
    {
        return new KeyRange(requireKey(key).clone(), null, true);
    }

    /**
     * @param key the one key, UTF-8 encoded.
     * @return a range holding exactly {@code key}.
     * @throws InvalidRequestException if the key is null or empty.
     */
    public static KeyRange key(final String key)
    {
        return key(Keys.utf8(key));
    }

    /**
     * @param from first key, inclusive.
     * @param to   end key, exclusive; must sort after {@code from}.
     * @return the range [from, to).
     * @throws InvalidRequestException if a key is null or empty, or {@code to <= from}.
     */
    public static KeyRange range(final byte[] from, final byte[] to)
    {
        requireKey(from);
        requireKey(to);
        if (Keys.compare(to, from) <= 0)
        {
            throw new InvalidRequestException("range end must sort after the range start");
        }
        return new KeyRange(from.clone(), to.clone(), false);
    }

    /**
     * @param from first key, inclusive, UTF-8 encoded.
     * @param to   end key, exclusive, UTF-8 encoded.
     * @return the range [from, to).
     * @throws InvalidRequestException if a key is null or empty, or {@code to <= from}.
     */
    public static KeyRange range(final String from, final String to)
    {
        return range(Keys.utf8(from), Keys.utf8(to));
    }

    /**
     * @param prefix a prefix; empty means every key, as etcd's empty prefix (range_end "\0").
     * @return every key that starts with {@code prefix}; {@link #all()} for an empty prefix.
     * @throws InvalidRequestException if the prefix is null.
     */
    public static KeyRange prefix(final byte[] prefix)
    {
        if (prefix != null && prefix.length == 0)
        {
            return ALL;
        }
        requireKey(prefix);
        return new KeyRange(prefix.clone(), Keys.prefixEnd(prefix), false);
    }

    /**
     * @param prefix a prefix, UTF-8 encoded; empty means every key (etcd's empty prefix).
     * @return every key that starts with {@code prefix}; {@link #all()} for an empty prefix.
     * @throws InvalidRequestException if the prefix is null.
     */
    public static KeyRange prefix(final String prefix)
    {
        return prefix(Keys.utf8(prefix));
    }

    /**
     * @param from first key, inclusive.
     * @return every key at or after {@code from} (etcd's range_end "\0").
     * @throws InvalidRequestException if the key is null or empty.
     */
    public static KeyRange from(final byte[] from)
    {
        return new KeyRange(requireKey(from).clone(), null, false);
    }

    /**
     * @return every key.
     */
    public static KeyRange all()
    {
        return ALL;
    }

    /**
     * @return true when this range holds exactly one key.
     */
    public boolean isSingleKey()
    {
        return single;
    }

    /**
     * @return the first key (inclusive); empty for {@link #all()}. Shared array: do not modify.
     */
    public byte[] fromKey()
    {
        return from;
    }

    /**
     * @return the exclusive end key, or null when unbounded above or a single key. Shared array:
     * do not modify.
     */
    public byte[] toKey()
    {
        return to;
    }

    /**
     * @param key a key.
     * @return true when {@code key} lies in this range.
     */
    public boolean contains(final byte[] key)
    {
        if (single)
        {
            return Arrays.equals(from, key);
        }
        return Keys.compare(key, from) >= 0 && (to == null || Keys.compare(key, to) < 0);
    }

    /**
     * Tests a key held in a buffer, without allocating.
     *
     * @param key       buffer holding the key from offset 0.
     * @param keyLength the key's length.
     * @return true when the key lies in this range.
     */
    public boolean contains(final DirectBuffer key, final int keyLength)
    {
        final int fromCmp = compare(key, keyLength, from);
        if (single)
        {
            return fromCmp == 0;
        }
        return fromCmp >= 0 && (to == null || compare(key, keyLength, to) < 0);
    }

    /**
     * Compares a key held in a buffer with one held in an array, in unsigned byte order.
     *
     * @param key       buffer holding a key from offset 0.
     * @param keyLength the key's length.
     * @param other     the other key.
     * @return negative, zero or positive as the buffer's key sorts before, with or after it.
     */
    public static int compare(final DirectBuffer key, final int keyLength, final byte[] other)
    {
        final int common = Math.min(keyLength, other.length);
        int i = 0;
        // Eight bytes at a time, big-endian, so that an unsigned long comparison is the byte order.
        for (; i + Long.BYTES <= common; i += Long.BYTES)
        {
            final long mine = key.getLong(i, ByteOrder.BIG_ENDIAN);
            final long theirs = (long)LONGS.get(other, i);
            if (mine != theirs)
            {
                return Long.compareUnsigned(mine, theirs);
            }
        }
        for (; i < common; i++)
        {
            final int cmp = Integer.compare(key.getByte(i) & 0xFF, other[i] & 0xFF);
            if (cmp != 0)
            {
                return cmp;
            }
        }
        return Integer.compare(keyLength, other.length);
    }

    @Override
    public boolean equals(final Object o)
    {
        if (!(o instanceof KeyRange))
        {
            return false;
        }
        final KeyRange that = (KeyRange)o;
        return single == that.single && Arrays.equals(from, that.from) && Arrays.equals(to, that.to);
    }

    @Override
    public int hashCode()
    {
        return Arrays.hashCode(from) * 31 + Arrays.hashCode(to);
    }

    @Override
    public String toString()
    {
        final String f = new String(from, StandardCharsets.UTF_8);
        if (single)
        {
            return "key(" + f + ")";
        }
        return "[" + f + ", " + (to == null ? "+inf" : new String(to, StandardCharsets.UTF_8)) + ")";
    }

    private static byte[] requireKey(final byte[] key)
    {
        if (key == null || key.length == 0)
        {
            throw new InvalidRequestException("key must be neither null nor empty");
        }
        return key;
    }
}
