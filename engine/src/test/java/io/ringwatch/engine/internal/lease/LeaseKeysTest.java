package io.ringwatch.engine.internal.lease;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A lease's keys against a sorted set, through the sorted small form into the indexed large one,
 * then shrinking again (the index kept): every add and remove, and the keys read in key order after
 * each batch.
 */
class LeaseKeysTest
{
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);

    @Test
    void randomAddsAndRemovesKeepTheSameKeysInKeyOrderAsASortedSet()
    {
        final Random random = new Random(15);
        final LeaseKeys keys = new LeaseKeys();
        final TreeSet<byte[]> model = new TreeSet<>(Arrays::compareUnsigned);
        for (int round = 0; round < 200; round++)
        {
            // Rounds grow the lease past the index's threshold, then shrink it again.
            final int universe = round < 100 ? 4 + round * 3 : 4 + (200 - round) * 3;
            final int changes = 1 + random.nextInt(2 * LeaseKeys.SORTED_MAX);
            for (int change = 0; change < changes; change++)
            {
                final byte[] key = key(random, universe);
                buffer.putBytes(0, key);
                if (random.nextInt(3) > 0)
                {
                    keys.add(buffer, key.length);
                    model.add(key);
                }
                else
                {
                    keys.remove(buffer, key.length);
                    model.remove(key);
                }
                assertEquals(model.size(), keys.size(), "round " + round);
            }
            assertEquals(asStrings(new ArrayList<>(model)), asStrings(all(keys)), "round " + round);
        }
    }

    @Test
    void keysThatArePrefixesOfOthersComeFirstAndBytesCompareUnsigned()
    {
        final LeaseKeys keys = new LeaseKeys();
        final List<byte[]> added = new ArrayList<>();
        for (int i = 0; i < 3 * LeaseKeys.SORTED_MAX; i++)
        {
            final byte[] key = new byte[1 + i % 3];
            Arrays.fill(key, (byte)(i % 2 == 0 ? 0x80 + i : i));
            added.add(key);
            buffer.putBytes(0, key);
            keys.add(buffer, key.length);
        }
        added.sort(Arrays::compareUnsigned);

        assertEquals(asStrings(added), asStrings(all(keys)));
    }

    private static byte[] key(final Random random, final int universe)
    {
        return ("k" + random.nextInt(universe)).getBytes(StandardCharsets.UTF_8);
    }

    private static List<byte[]> all(final LeaseKeys keys)
    {
        final List<byte[]> all = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++)
        {
            all.add(keys.get(i));
        }
        return all;
    }

    private static List<String> asStrings(final List<byte[]> keys)
    {
        return keys.stream().map(Arrays::toString).toList();
    }
}
