package io.ringwatch.engine.kv;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link KeyRange#compare} and {@link KeyRange#contains(org.agrona.DirectBuffer, int)} against the
 * JDK's unsigned array comparison, on keys that differ in any byte (high bytes included, which a
 * signed comparison orders wrongly), share prefixes and have every length around the eight-byte
 * lanes, in heap and direct buffers.
 */
class KeyRangeCompareTest
{
    private static final long SEED = 20261126L;

    @Test
    void comparesAsUnsignedBytesWhereverKeysDiffer()
    {
        final Random random = new Random(SEED);
        for (int round = 0; round < 20_000; round++)
        {
            final byte[] a = key(random);
            final byte[] b = random.nextInt(3) == 0 ? a.clone() : key(random);
            if (random.nextInt(3) == 0 && b.length > 0)
            {
                // Same bytes up to a random point, so the difference falls inside or after a lane.
                System.arraycopy(a, 0, b, 0, Math.min(a.length, random.nextInt(b.length + 1)));
            }
            final int expected = Integer.signum(Arrays.compareUnsigned(a, b));
            final UnsafeBuffer direct = new UnsafeBuffer(ByteBuffer.allocateDirect(a.length + 3), 3, a.length);
            direct.putBytes(0, a);
            assertEquals(expected, Integer.signum(KeyRange.compare(new UnsafeBuffer(a), a.length, b)),
                "seed " + SEED + " round " + round);
            assertEquals(expected, Integer.signum(KeyRange.compare(direct, a.length, b)), "seed " + SEED + " round " + round);
        }
    }

    @Test
    void aRangeHoldsExactlyTheKeysBetweenItsBounds()
    {
        final Random random = new Random(SEED + 1);
        for (int round = 0; round < 5_000; round++)
        {
            byte[] from = key(random);
            byte[] to = key(random);
            if (Arrays.compareUnsigned(from, to) > 0)
            {
                final byte[] swap = from;
                from = to;
                to = swap;
            }
            if (from.length == 0 || Arrays.equals(from, to))
            {
                continue;
            }
            final KeyRange range = KeyRange.range(from, to);
            final byte[] key = random.nextBoolean() ? key(random) : from.clone();
            final boolean expected = Arrays.compareUnsigned(key, from) >= 0 && Arrays.compareUnsigned(key, to) < 0;
            assertEquals(expected, range.contains(new UnsafeBuffer(key), key.length), "seed " + SEED + " round " + round);
        }
    }

    private static byte[] key(final Random random)
    {
        final byte[] key = new byte[random.nextInt(27)];
        for (int i = 0; i < key.length; i++)
        {
            // Few distinct bytes, so keys often share long prefixes; 0x80 and 0xFF test the sign.
            key[i] = (byte)new int[] {0x00, 0x01, 0x2F, 0x7F, 0x80, 0xFF}[random.nextInt(6)];
        }
        return key;
    }
}
