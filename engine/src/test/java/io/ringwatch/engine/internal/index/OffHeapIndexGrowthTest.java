package io.ringwatch.engine.internal.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.agrona.ExpandableArrayBuffer;
import org.junit.jupiter.api.Test;

class OffHeapIndexGrowthTest
{
    private final ExpandableArrayBuffer key = new ExpandableArrayBuffer(32);
    private final ExpandableArrayBuffer value = new ExpandableArrayBuffer(8192);
    private final IndexEntry prev = new IndexEntry();
    private final IndexEntry entry = new IndexEntry();

    @Test
    void growsFromATinyHintToTwoHundredThousandKeys()
    {
        final int keys = 200_000;
        try (OffHeapIndex index = new OffHeapIndex(1))
        {
            final long emptyBytes = index.offHeapBytes();
            for (int i = 0; i < keys; i++)
            {
                // inserted in scrambled order so the skip list is built out of order
                final int k = (int)((i * 7_919L) % keys);
                index.put(key, 0, key(k), value, 0, value(k, 24), 1 + i, prev);
            }
            assertEquals(keys, index.size());
            assertTrue(index.offHeapBytes() > emptyBytes);

            for (int k = 0; k < keys; k += 997)
            {
                assertTrue(index.get(key, 0, key(k), entry), "key " + k);
                assertEquals(24, entry.valueLength());
                assertEquals(k, entry.value().getInt(0));
            }
            final int[] next = {0};
            final int visited = index.scan(null, 0, 0, null, 0, 0, 0, e ->
            {
                final int keyLength = key(next[0]++);
                assertEquals(0, Keys.compare(e.key(), 0, e.keyLength(), key, 0, keyLength),
                    () -> "scan out of order at " + next[0]);
                return true;
            });
            assertEquals(keys, visited);
        }
    }

    @Test
    void valuesGrowingAndShrinkingReuseBlocks()
    {
        final int keys = 2_000;
        final int[] sizes = {16, 3000, 40, 6000, 8, 1000};
        try (OffHeapIndex index = new OffHeapIndex(keys))
        {
            long bytesAfterFirstRound = 0;
            for (int round = 0; round < 5; round++)
            {
                for (final int size : sizes)
                {
                    for (int k = 0; k < keys; k++)
                    {
                        index.put(key, 0, key(k), value, 0, value(k, size), 1, prev);
                    }
                    for (int k = 0; k < keys; k += 101)
                    {
                        assertTrue(index.get(key, 0, key(k), entry));
                        assertEquals(size, entry.valueLength(), "round " + round + " key " + k);
                        assertEquals(k, entry.value().getInt(0), "round " + round + " key " + k);
                    }
                }
                if (round == 0)
                {
                    bytesAfterFirstRound = index.offHeapBytes();
                }
            }
            assertEquals(bytesAfterFirstRound, index.offHeapBytes(), "memory grew although sizes repeat");
        }
    }

    @Test
    void repeatedPutRemoveCyclesOfTheSameKeysDoNotGrowMemory()
    {
        final int keys = 10_000;
        try (OffHeapIndex index = new OffHeapIndex(16))
        {
            long bytesAfterFirstCycle = 0;
            for (int cycle = 0; cycle < 8; cycle++)
            {
                for (int k = 0; k < keys; k++)
                {
                    index.put(key, 0, key(k), value, 0, value(k, 20 + k % 50), 1, prev);
                }
                for (int k = 0; k < keys; k++)
                {
                    assertTrue(index.remove(key, 0, key(k), prev), "cycle " + cycle + " key " + k);
                }
                assertEquals(0, index.size());
                if (cycle == 0)
                {
                    bytesAfterFirstCycle = index.offHeapBytes();
                }
            }
            // levels are random, so each cycle needs a slightly different mix of block sizes
            assertTrue(index.offHeapBytes() <= bytesAfterFirstCycle * 5 / 4,
                "first cycle " + bytesAfterFirstCycle + " bytes, now " + index.offHeapBytes());
        }
    }

    /** Writes "key-" and eight decimal digits, so byte order is numeric order. */
    private int key(final int k)
    {
        key.putStringWithoutLengthAscii(0, "key-");
        int rest = k;
        for (int i = 11; i >= 4; i--)
        {
            key.putByte(i, (byte)('0' + rest % 10));
            rest /= 10;
        }
        return 12;
    }

    private int value(final int k, final int length)
    {
        value.setMemory(0, length, (byte)k);
        if (length >= Integer.BYTES)
        {
            value.putInt(0, k);
        }
        return length;
    }
}
