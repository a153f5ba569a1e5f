package io.ringwatch.engine.internal.index;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.SplittableRandom;
import java.util.TreeMap;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Random operations against {@link OffHeapIndex} and a {@link TreeMap} model side by side; keys
 * from a small alphabet around the signed/unsigned byte boundary so collisions, prefixes and
 * recreation are frequent. The seed is in every assertion message.
 */
class OffHeapIndexModelTest
{
    private static final int[] ALPHABET = {0x00, 0x01, 0x7F, 0x80, 0xFE, 0xFF};
    private static final int OPERATIONS = 20_000;

    private record Model(byte[] value, long createRevision, long modRevision, long version)
    {
    }

    @ParameterizedTest
    @ValueSource(longs = {1L, 42L, 0xC0FFEEL, 20240601L})
    void behavesLikeASortedMap(final long seed)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final NavigableMap<byte[], Model> model = new TreeMap<>(Arrays::compareUnsigned);
        final IndexEntry prev = new IndexEntry();
        final IndexEntry entry = new IndexEntry();
        long revision = 0;
        try (OffHeapIndex index = new OffHeapIndex(4))
        {
            for (int op = 0; op < OPERATIONS; op++)
            {
                final String where = "seed=" + seed + " op=" + op;
                final byte[] key = randomKey(random);
                final UnsafeBuffer keyBuffer = new UnsafeBuffer(key);
                final int choice = random.nextInt(10);
                if (choice < 5)
                {
                    final byte[] value = randomValue(random);
                    revision++;
                    index.put(keyBuffer, 0, key.length, new UnsafeBuffer(value), 0, value.length, revision, prev);
                    final Model old = model.get(key);
                    assertMatches(where + " put prev", old, prev);
                    model.put(key, old == null ?
                        new Model(value, revision, revision, 1) :
                        new Model(value, old.createRevision, revision, old.version + 1));
                }
                else if (choice < 7)
                {
                    final boolean removed = index.remove(keyBuffer, 0, key.length, prev);
                    final Model old = model.remove(key);
                    assertEquals(old != null, removed, where + " remove");
                    assertMatches(where + " remove prev", old, prev);
                }
                else if (choice < 9)
                {
                    index.get(keyBuffer, 0, key.length, entry);
                    assertMatches(where + " get", model.get(key), entry);
                }
                else
                {
                    checkScan(where, random, index, model);
                }
                assertEquals(model.size(), index.size(), where + " size");
            }
            checkScan("seed=" + seed + " final", random, index, model);
        }
    }

    private static void checkScan(
        final String where, final SplittableRandom random, final OffHeapIndex index, final NavigableMap<byte[], Model> model)
    {
        final byte[] from = random.nextBoolean() ? null : randomBound(random);
        final byte[] to = random.nextBoolean() ? null : randomBound(random);
        final int limit = random.nextInt(4) == 0 ? 1 + random.nextInt(5) : 0;

        final List<Map.Entry<byte[], Model>> expected = new ArrayList<>();
        for (final Map.Entry<byte[], Model> e : (from == null ? model : model.tailMap(from, true)).entrySet())
        {
            if ((to != null && Arrays.compareUnsigned(e.getKey(), to) >= 0) || (limit > 0 && expected.size() == limit))
            {
                break;
            }
            expected.add(e);
        }
        final List<byte[]> keys = new ArrayList<>();
        final int[] position = {0};
        final int visited = index.scan(
            from == null ? null : new UnsafeBuffer(from), 0, from == null ? 0 : from.length,
            to == null ? null : new UnsafeBuffer(to), 0, to == null ? 0 : to.length,
            limit,
            e ->
            {
                final int i = position[0]++;
                final String at = where + " scan[" + i + "] from=" + Arrays.toString(from) + " to=" + Arrays.toString(to);
                if (i < expected.size())
                {
                    assertArrayEquals(expected.get(i).getKey(), e.keyBytes(), at);
                    assertMatches(at, expected.get(i).getValue(), e);
                }
                keys.add(e.keyBytes());
                return true;
            });
        assertEquals(expected.size(), visited, where + " scan count, limit=" + limit);
        assertEquals(expected.size(), keys.size(), where + " scan visits");
    }

    private static void assertMatches(final String where, final Model expected, final IndexEntry actual)
    {
        assertEquals(expected != null, actual.found(), where + " found");
        if (expected != null)
        {
            assertArrayEquals(expected.value, actual.valueBytes(), where + " value");
            assertEquals(expected.createRevision, actual.createRevision(), where + " createRevision");
            assertEquals(expected.modRevision, actual.modRevision(), where + " modRevision");
            assertEquals(expected.version, actual.version(), where + " version");
        }
    }

    private static byte[] randomKey(final SplittableRandom random)
    {
        final byte[] key = new byte[1 + random.nextInt(3)];
        for (int i = 0; i < key.length; i++)
        {
            key[i] = (byte)ALPHABET[random.nextInt(ALPHABET.length)];
        }
        return key;
    }

    private static byte[] randomBound(final SplittableRandom random)
    {
        final byte[] bound = new byte[random.nextInt(3)];
        for (int i = 0; i < bound.length; i++)
        {
            bound[i] = (byte)ALPHABET[random.nextInt(ALPHABET.length)];
        }
        return bound;
    }

    private static byte[] randomValue(final SplittableRandom random)
    {
        // mostly small, sometimes large enough to outgrow the node's block
        final int length = random.nextInt(8) == 0 ? random.nextInt(3000) : random.nextInt(40);
        final byte[] value = new byte[length];
        random.nextBytes(value);
        return value;
    }
}
