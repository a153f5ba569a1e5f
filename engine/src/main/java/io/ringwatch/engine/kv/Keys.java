package io.ringwatch.engine.kv;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Key helpers shared by the API types: UTF-8 encoding and etcd's prefix range end. Stateless;
 * each method allocates only the array it returns.
 */
public final class Keys
{
    private Keys()
    {
    }

    /**
     * @param s a string key or value.
     * @return its UTF-8 bytes.
     * @throws io.ringwatch.engine.errors.InvalidRequestException if {@code s} is null.
     */
    public static byte[] utf8(final String s)
    {
        if (s == null)
        {
            throw new io.ringwatch.engine.errors.InvalidRequestException("key or value must not be null");
        }
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The first key after every key that starts with {@code prefix}: the prefix with its last
     * byte below 0xFF incremented and what follows dropped (etcd's GetPrefixRangeEnd).
     *
     * @param prefix the prefix.
     * @return the exclusive end of the prefix's range, or null when no such key exists (the
     * prefix is empty or all 0xFF), meaning the range is unbounded above.
     */
    public static byte[] prefixEnd(final byte[] prefix)
    {
        for (int i = prefix.length - 1; i >= 0; i--)
        {
            if ((prefix[i] & 0xFF) != 0xFF)
            {
                final byte[] end = Arrays.copyOf(prefix, i + 1);
                end[i]++;
                return end;
            }
        }
        return null;
    }

    /**
     * @param a first key.
     * @param b second key.
     * @return negative, zero or positive as {@code a} sorts before, with or after {@code b} in
     * unsigned byte order (etcd's key order).
     */
    public static int compare(final byte[] a, final byte[] b)
    {
        return Arrays.compareUnsigned(a, b);
    }
}
