package io.ringwatch.engine.internal.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * {@link NodeHashIndex}'s growth by moving its slots a step per write into a table 1.25 times larger:
 * the fill it keeps, every key found before, during and after a move (also keys replaced, removed and
 * re-inserted while their slots move, and probe chains that wrap past the table's end), tombstone
 * purges, and readers on another thread that never miss a key present throughout.
 */
class NodeHashIndexMoveTest
{
    private final ExpandableArrayBuffer key = new ExpandableArrayBuffer(32);
    private final ExpandableArrayBuffer value = new ExpandableArrayBuffer(256);
    private final IndexEntry prev = new IndexEntry();
    private final IndexEntry entry = new IndexEntry();

    @Test
    void growsByAQuarterAndIsBetween064And08FullWhenNoMoveIsInProgress()
    {
        try (OffHeapIndex index = new OffHeapIndex(1))
        {
            final NodeHashIndex table = index.hashIndex();
            int capacity = table.capacity();
            int growths = 0;
            for (int k = 0; k < 300_000; k++)
            {
                put(index, k, 8);
                if (table.capacity() != capacity)
                {
                    if (capacity > 1_000)
                    {
                        assertEquals(1.25, (double)table.capacity() / capacity, 0.001, "after key " + k);
                    }
                    capacity = table.capacity();
                    growths++;
                }
                final double fill = (double)index.size() / capacity;
                assertTrue(fill <= 0.8, "fill " + fill + " at key " + k);
                if (!table.isMoving() && capacity > 1_000)
                {
                    assertTrue(fill >= 0.64 - 0.001, "fill " + fill + " at key " + k);
                }
            }
            assertTrue(growths > 30, "only " + growths + " growths");
            for (int k = 0; k < 300_000; k++)
            {
                assertFound(index, k, 8);
            }
        }
    }

    @Test
    void everyKeyIsFoundAfterEveryStepOfAMove()
    {
        try (OffHeapIndex index = new OffHeapIndex(1_000))
        {
            final NodeHashIndex table = index.hashIndex();
            final int keys = fillUntilAMoveStarts(index);
            int steps = 0;
            while (table.isMoving())
            {
                // a lookup of an absent key moves a step and changes nothing else
                assertFalse(index.remove(key, 0, key(-1 - steps), prev));
                steps++;
                for (int k = 0; k < keys; k++)
                {
                    assertFound(index, k, 8);
                }
            }
            assertTrue(steps > 10, "the move took only " + steps + " steps");
            assertEquals(keys, index.size());
        }
    }

    @Test
    void keysReplacedRemovedAndReinsertedWhileTheirSlotsMoveAreWhereTheyShouldBe()
    {
        try (OffHeapIndex index = new OffHeapIndex(1_000))
        {
            final NodeHashIndex table = index.hashIndex();
            final int present = fillUntilAMoveStarts(index);
            // each write is a step: every third key grows out of its block (a new node in its slot), every
            // fifth is removed, every seventh removed and put back, whichever table holds its slot now
            for (int k = 0; k < present; k++)
            {
                if (k % 3 == 0)
                {
                    put(index, k, 200);
                }
                if (k % 5 == 0)
                {
                    assertTrue(index.remove(key, 0, key(k), prev), "key " + k);
                }
                if (k % 7 == 0)
                {
                    index.remove(key, 0, key(k), prev);
                    put(index, k, 16);
                }
            }
            assertFalse(table.isMoving());
            int expected = 0;
            for (int k = 0; k < present; k++)
            {
                if (k % 7 == 0)
                {
                    assertFound(index, k, 16);
                }
                else if (k % 5 == 0)
                {
                    assertFalse(index.get(key, 0, key(k), entry), "removed key " + k);
                    expected--;
                }
                else
                {
                    assertFound(index, k, k % 3 == 0 ? 200 : 8);
                }
                expected++;
            }
            assertEquals(expected, index.size());
        }
    }

    @Test
    void probeChainsThatWrapPastTheTablesEndSurviveAMove()
    {
        // keys whose tags put their homes in the last 1/64 of any table: in a table of 100 slots all
        // share home 98 or 99, so the 80 that fill it before it moves lie in slots 98, 99 and 0 to 77
        final List<UnsafeBuffer> high = keysWithTagsAbove(0xFC00_0000L, 120);
        try (OffHeapIndex index = new OffHeapIndex(64))
        {
            final NodeHashIndex table = index.hashIndex();
            final int capacity = table.capacity();
            int added = 0;
            while (!table.isMoving())
            {
                final UnsafeBuffer k = high.get(added++);
                index.put(k, 0, k.capacity(), value, 0, 4, 1, prev);
            }
            assertEquals(100, capacity);
            assertEquals(81, added, "the move started at " + added + " keys");
            int step = 0;
            while (table.isMoving())
            {
                final UnsafeBuffer k = high.get(step % added);
                // replace and remove wrapped keys while the first slots (holding the wrapped ends) move
                if (step % 2 == 0)
                {
                    index.put(k, 0, k.capacity(), value, 0, 100, 2, prev);
                }
                else
                {
                    index.remove(k, 0, k.capacity(), prev);
                    index.put(k, 0, k.capacity(), value, 0, 100, 2, prev);
                }
                step++;
                for (int i = 0; i < added; i++)
                {
                    final UnsafeBuffer found = high.get(i);
                    assertTrue(index.get(found, 0, found.capacity(), entry), "wrapped key " + i + " at step " + step);
                }
            }
            assertEquals(added, index.size());
        }
    }

    @Test
    void manyRemovesPurgeTombstonesWithoutGrowing()
    {
        try (OffHeapIndex index = new OffHeapIndex(1_000))
        {
            final NodeHashIndex table = index.hashIndex();
            final int capacity = table.capacity();
            // 500 keys held while 100,000 others come and go: the tombstones fill the table, which is
            // rebuilt at its size for the live keys, never grown
            for (int k = 0; k < 500; k++)
            {
                put(index, k, 8);
            }
            for (int k = 500; k < 100_500; k++)
            {
                put(index, k, 8);
                assertTrue(index.remove(key, 0, key(k), prev));
                assertTrue(table.capacity() <= capacity, "grew to " + table.capacity() + " at key " + k);
            }
            assertEquals(500, index.size());
            for (int k = 0; k < 500; k++)
            {
                assertFound(index, k, 8);
            }
            for (int k = 500; k < 100_500; k += 97)
            {
                assertFalse(index.get(key, 0, key(k), entry), "removed key " + k);
            }
        }
    }

    @Test
    void aReaderNeverMissesAKeyPresentThroughoutWhileTheWriterGrowsTheTable() throws InterruptedException
    {
        final int stable = 2_000;
        try (OffHeapIndex index = new OffHeapIndex(16))
        {
            for (int k = 0; k < stable; k++)
            {
                put(index, k, 8);
            }
            final AtomicBoolean done = new AtomicBoolean();
            final AtomicReference<String> miss = new AtomicReference<>();
            final Thread reader = new Thread(() -> readUntilDone(index, stable, done, miss), "reader");
            reader.start();
            // other keys grow the table through a dozen moves; a third of the stable keys are replaced
            // by larger nodes meanwhile (their slots change while they may be moving)
            final ExpandableArrayBuffer otherKey = new ExpandableArrayBuffer(32);
            final IndexEntry writerPrev = new IndexEntry();
            for (int k = 0; k < 200_000 && miss.get() == null; k++)
            {
                final int length = keyInto(otherKey, stable + k);
                index.put(otherKey, 0, length, value, 0, 8, 1, writerPrev);
                if (k % 100 == 0)
                {
                    final int replaced = (k / 100) % stable;
                    if (replaced % 3 == 0)
                    {
                        final int l = keyInto(otherKey, replaced);
                        index.put(otherKey, 0, l, value, 0, 8 + (k / 100) % 200, 2, writerPrev);
                    }
                }
            }
            done.set(true);
            reader.join();
            assertEquals(null, miss.get());
        }
    }

    private static void readUntilDone(
        final OffHeapIndex index, final int stable, final AtomicBoolean done, final AtomicReference<String> miss)
    {
        final ExpandableArrayBuffer readerKey = new ExpandableArrayBuffer(32);
        final IndexEntry readerEntry = new IndexEntry();
        for (int k = 0; !done.get(); k = (k + 1) % stable)
        {
            final int length = keyInto(readerKey, k);
            if (!index.get(readerKey, 0, length, readerEntry))
            {
                miss.set("key " + k + " missed");
                return;
            }
        }
    }

    private static List<UnsafeBuffer> keysWithTagsAbove(final long lowestTag, final int count)
    {
        final List<UnsafeBuffer> found = new ArrayList<>();
        final ExpandableArrayBuffer candidate = new ExpandableArrayBuffer(32);
        for (int k = 0; found.size() < count; k++)
        {
            final int length = keyInto(candidate, k);
            if ((SlotTable.tag(Keys.hash(candidate, 0, length)) & 0xFFFF_FFFFL) >= lowestTag)
            {
                final byte[] bytes = new byte[length];
                candidate.getBytes(0, bytes);
                found.add(new UnsafeBuffer(bytes));
            }
        }
        return found;
    }

    /** Puts keys 0, 1, ... with 8-byte values until the hash table starts moving; returns how many. */
    private int fillUntilAMoveStarts(final OffHeapIndex index)
    {
        int keys = 0;
        while (!index.hashIndex().isMoving())
        {
            put(index, keys++, 8);
        }
        return keys;
    }

    private void put(final OffHeapIndex index, final int k, final int valueLength)
    {
        index.put(key, 0, key(k), value, 0, value(k, valueLength), 1, prev);
    }

    private void assertFound(final OffHeapIndex index, final int k, final int valueLength)
    {
        assertTrue(index.get(key, 0, key(k), entry), "key " + k);
        assertEquals(valueLength, entry.valueLength(), "key " + k);
        assertEquals(k, entry.value().getInt(0), "key " + k);
    }

    private int key(final int k)
    {
        return keyInto(key, k);
    }

    /** Writes "key-" and the number in decimal. */
    private static int keyInto(final ExpandableArrayBuffer into, final int k)
    {
        into.putStringWithoutLengthAscii(0, "key-");
        return 4 + into.putIntAscii(4, k);
    }

    private int value(final int k, final int length)
    {
        value.setMemory(0, length, (byte)k);
        value.putInt(0, k);
        return length;
    }
}
