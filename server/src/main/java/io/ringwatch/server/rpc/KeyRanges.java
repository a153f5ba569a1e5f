package io.ringwatch.server.rpc;

import com.google.protobuf.ByteString;
import io.ringwatch.engine.kv.KeyRange;

import java.util.Arrays;

/**
 * etcd's key and range_end conventions as engine ranges: an empty range_end means the key alone,
 * range_end "\0" means every key from the key on ("\0" to "\0": every key), and a range_end that
 * sorts at or before the key means no key at all. Used by KV requests and watches alike. Stateless;
 * allocates the range.
 */
public final class KeyRanges
{
    private KeyRanges()
    {
    }

    /**
     * @param key      the key, not empty (checked by the caller).
     * @param rangeEnd etcd's range_end.
     * @return the engine range, or null when the range holds no key.
     */
    public static KeyRange of(final ByteString key, final ByteString rangeEnd)
    {
        final byte[] from = key.toByteArray();
        if (rangeEnd.isEmpty())
        {
            return KeyRange.key(from);
        }
        if (rangeEnd.size() == 1 && rangeEnd.byteAt(0) == 0)
        {
            return from.length == 1 && from[0] == 0 ? KeyRange.all() : KeyRange.from(from);
        }
        final byte[] to = rangeEnd.toByteArray();
        if (Arrays.compareUnsigned(to, from) <= 0)
        {
            return null;
        }
        return KeyRange.range(from, to);
    }

    /**
     * The range as {@link #of(ByteString, ByteString)}, narrowed to the keys an engine can hold:
     * none is longer than {@code maxKeyBytes}, so a single key longer than that holds nothing, and a
     * bound longer than that is replaced by the shortest one that takes the same stored keys (etcd,
     * which has no key limit, answers for such a key as for any absent one; the engine would refuse
     * it). Stateless; allocates the range.
     *
     * @param key         the key, not empty.
     * @param rangeEnd    etcd's range_end.
     * @param maxKeyBytes the engine's longest key.
     * @return the engine range, or null when it holds no key the engine can hold.
     */
    public static KeyRange of(final ByteString key, final ByteString rangeEnd, final int maxKeyBytes)
    {
        if (key.size() <= maxKeyBytes && rangeEnd.size() <= maxKeyBytes)
        {
            return of(key, rangeEnd);
        }
        if (rangeEnd.isEmpty())
        {
            return null;
        }
        // A stored key k (at most maxKeyBytes) is at or after a longer key exactly when it is at or
        // after the successor of that key's first maxKeyBytes bytes, and before a longer range end
        // exactly when it is before that successor.
        final boolean fromKeyOn = rangeEnd.size() == 1 && rangeEnd.byteAt(0) == 0;
        final byte[] from = key.size() <= maxKeyBytes ? key.toByteArray() : successor(key.substring(0, maxKeyBytes));
        if (from == null)
        {
            return null;
        }
        final byte[] to = fromKeyOn ? null :
            rangeEnd.size() <= maxKeyBytes ? rangeEnd.toByteArray() : successor(rangeEnd.substring(0, maxKeyBytes));
        if (to == null)
        {
            return KeyRange.from(from);
        }
        return Arrays.compareUnsigned(to, from) <= 0 ? null : KeyRange.range(from, to);
    }

    /**
     * @return the least key after every key that starts with {@code prefix} (etcd's prefix end:
     *         trailing 0xFF bytes dropped, the last byte left incremented), or null when there is
     *         none (the prefix is all 0xFF).
     */
    private static byte[] successor(final ByteString prefix)
    {
        final byte[] end = prefix.toByteArray();
        for (int i = end.length - 1; i >= 0; i--)
        {
            if (end[i] != (byte)0xFF)
            {
                end[i]++;
                return Arrays.copyOf(end, i + 1);
            }
        }
        return null;
    }
}
