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
}
