package io.ringwatch.server.rpc;

import com.google.protobuf.ByteString;
import io.ringwatch.engine.kv.KeyRange;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A key or bound longer than the engine's longest key narrows to the range of the keys it can hold:
 * checked against etcd's own reading of [key, range_end) over every key of up to 3 bytes from an
 * alphabet with the smallest and largest bytes, for every key and range end of up to 4 bytes.
 */
class KeyRangesTest
{
    private static final byte[] ALPHABET = {0, 'a', 'b', (byte)0xFF};
    private static final int MAX = 3;

    @Test
    void aRangeNarrowedToTheStorableKeysHoldsExactlyTheStorableKeysOfTheRange()
    {
        final List<byte[]> stored = keys(MAX, false);
        final List<byte[]> bounds = keys(MAX + 1, true);
        for (final byte[] key : bounds)
        {
            if (key.length == 0)
            {
                continue;
            }
            for (final byte[] end : bounds)
            {
                final KeyRange narrowed = KeyRanges.of(ByteString.copyFrom(key), ByteString.copyFrom(end), MAX);
                for (final byte[] candidate : stored)
                {
                    assertEquals(inEtcdRange(candidate, key, end), narrowed != null && narrowed.contains(candidate),
                        () -> Arrays.toString(candidate) + " in [" + Arrays.toString(key) + ", " + Arrays.toString(end) + ")");
                }
            }
        }
    }

    /** etcd: an empty end is the key alone, "\0" every key from the key on, else [key, end). */
    private static boolean inEtcdRange(final byte[] candidate, final byte[] key, final byte[] end)
    {
        if (end.length == 0)
        {
            return Arrays.equals(candidate, key);
        }
        final boolean fromKey = Arrays.compareUnsigned(candidate, key) >= 0;
        if (end.length == 1 && end[0] == 0)
        {
            return fromKey;
        }
        return fromKey && Arrays.compareUnsigned(candidate, end) < 0;
    }

    private static List<byte[]> keys(final int maxLength, final boolean withEmpty)
    {
        final List<byte[]> keys = new ArrayList<>();
        if (withEmpty)
        {
            keys.add(new byte[0]);
        }
        List<byte[]> previous = List.of(new byte[0]);
        for (int length = 1; length <= maxLength; length++)
        {
            final List<byte[]> next = new ArrayList<>();
            for (final byte[] prefix : previous)
            {
                for (final byte b : ALPHABET)
                {
                    final byte[] key = Arrays.copyOf(prefix, length);
                    key[length - 1] = b;
                    next.add(key);
                }
            }
            keys.addAll(next);
            previous = next;
        }
        return keys;
    }
}
