package io.ringwatch.engine.internal.index;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link PendingSlots} keeps every slot it was given and orders them by their home, to within one of
 * its 4,096 buckets, in a table of any size.
 */
class PendingSlotsTest
{
    private static final long SEED = 42;

    @Test
    void sortingByHomeKeepsEverySlotAndOrdersTheirHomesTopBits()
    {
        final int capacity = 1_250_000;
        final int bucketWidth = capacity / 4096 + 1;
        final SlotTable table = new SlotTable(capacity);
        final PendingSlots pending = new PendingSlots();
        final Random random = new Random(SEED);
        final long[] given = new long[50_000];
        for (int i = 0; i < given.length; i++)
        {
            given[i] = SlotTable.slotFor(random.nextInt(), 2 + random.nextInt(1 << 30));
            pending.add(given[i]);
        }

        pending.sortByHome(capacity);

        final long[] sorted = Arrays.copyOf(pending.contents(), pending.count());
        for (int i = 1; i < sorted.length; i++)
        {
            final int before = table.home(SlotTable.tagOf(sorted[i - 1]));
            final int home = table.home(SlotTable.tagOf(sorted[i]));
            assertTrue(before < home + bucketWidth, "seed " + SEED + " at " + i + ": " + before + " then " + home);
        }
        Arrays.sort(sorted);
        Arrays.sort(given);
        assertArrayEquals(given, sorted);
        table.free();
    }

    @Test
    void itHoldsAtMostMaxPendingAndClearsForTheNextBatch()
    {
        final PendingSlots pending = new PendingSlots();
        for (int i = 0; i < PendingSlots.MAX_PENDING; i++)
        {
            assertFalse(pending.isFull());
            pending.add(SlotTable.slotFor(i, 2 + i));
        }
        assertTrue(pending.isFull());
        pending.clear();
        assertEquals(0, pending.count());
        assertFalse(pending.isFull());
    }
}
