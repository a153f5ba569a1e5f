package io.ringwatch.engine.internal.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.agrona.ExpandableArrayBuffer;
import org.junit.jupiter.api.Test;

/**
 * {@link NodeHashIndex}'s next table, allocated uncleared ahead of the growth and cleared a step per
 * write: the growth takes it once every slot is cleared, a growth to another size allocates a zeroed
 * table instead, and every key is found throughout.
 */
class NodeHashIndexPrepareTest
{
    private final ExpandableArrayBuffer key = new ExpandableArrayBuffer(32);
    private final ExpandableArrayBuffer value = new ExpandableArrayBuffer(16);
    private final IndexEntry prev = new IndexEntry();
    private final IndexEntry entry = new IndexEntry();

    @Test
    void aTableClearedInStepsIsEmptyInEverySlotWhateverItsMemoryHeld()
    {
        final SlotTable table = SlotTable.uncleared(1_000);
        for (int slot = 0; slot < table.capacity(); slot++)
        {
            table.set(slot, 0xDEAD_BEEF_0000_0042L);
        }
        int steps = 0;
        while (!table.clearSome(7))
        {
            steps++;
            assertFalse(table.isCleared());
        }
        assertEquals(1_000 / 7, steps);
        assertTrue(table.isCleared());
        for (int slot = 0; slot < table.capacity(); slot++)
        {
            assertEquals(SlotTable.EMPTY, table.get(slot), "slot " + slot);
        }
        table.free();
    }

    @Test
    void everyGrowthOfALargeTableTakesTheTablePreparedAhead()
    {
        try (OffHeapIndex index = new OffHeapIndex(1_000))
        {
            final NodeHashIndex table = index.hashIndex();
            int capacity = table.capacity();
            int largeGrowths = 0;
            boolean preparedBeforeGrowth = false;
            for (int k = 0; k < 200_000; k++)
            {
                put(index, k);
                if (table.capacity() != capacity)
                {
                    assertTrue(preparedBeforeGrowth, "the growth to " + table.capacity() + " was prepared for");
                    largeGrowths++;
                    capacity = table.capacity();
                    preparedBeforeGrowth = false;
                }
                else if (table.isNextPrepared())
                {
                    final double fill = (double)index.size() / capacity;
                    assertTrue(fill >= 0.79 && fill <= 0.8, "prepared at fill " + fill);
                    preparedBeforeGrowth = true;
                }
            }
            assertTrue(largeGrowths > 15, "only " + largeGrowths + " growths");
            assertEquals(largeGrowths, table.preparedGrowthCount());
            for (int k = 0; k < 200_000; k++)
            {
                assertFound(index, k);
            }
        }
    }

    @Test
    void aGrowthToAnotherSizeFreesThePreparedTableAndAllocatesAZeroedOne()
    {
        try (OffHeapIndex index = new OffHeapIndex(1_000))
        {
            final NodeHashIndex table = index.hashIndex();
            int k = 0;
            while (!table.isNextPrepared())
            {
                put(index, k++);
            }
            final long bytesPrepared = table.bytes();

            table.reserve(10_000);

            assertFalse(table.isNextPrepared());
            assertEquals(0, table.preparedGrowthCount());
            assertTrue(table.capacity() >= 10_000 * 25 / 16, "sized for the reservation: " + table.capacity());
            assertEquals((long)table.capacity() * Long.BYTES, table.bytes(), "only the new table held once the move ended");
            assertTrue(bytesPrepared > 1_000 * Long.BYTES, "the prepared table was counted while held");
            for (int i = 0; i < k; i++)
            {
                assertFound(index, i);
            }
        }
    }

    private void put(final OffHeapIndex index, final int k)
    {
        value.putInt(0, k);
        index.put(key, 0, key(k), value, 0, Integer.BYTES, 1, prev);
    }

    private void assertFound(final OffHeapIndex index, final int k)
    {
        assertTrue(index.get(key, 0, key(k), entry), "key " + k);
        assertEquals(k, entry.value().getInt(0), "key " + k);
    }

    private int key(final int k)
    {
        key.putStringWithoutLengthAscii(0, "key-");
        return 4 + key.putIntAscii(4, k);
    }
}
