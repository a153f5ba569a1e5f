package io.ringwatch.engine.read;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ChunkedListTest
{
    @Test
    void holdsWhatWasAddedAcrossChunkBoundariesInOrder()
    {
        final ChunkedList<Integer> list = new ChunkedList<>();
        final List<Integer> reference = new ArrayList<>();
        for (int i = 0; i < 3 * 4096 + 17; i++)
        {
            list.add(i * 7);
            reference.add(i * 7);
        }
        assertEquals(reference.size(), list.size());
        assertEquals(reference, list);
        assertArrayEquals(reference.toArray(), list.toArray());
        assertEquals(reference, List.copyOf(list));
        assertThrows(IndexOutOfBoundsException.class, () -> list.get(reference.size()));
    }

    @Test
    void sortsStablyInPlace()
    {
        final ChunkedList<int[]> list = new ChunkedList<>();
        for (int i = 0; i < 10_000; i++)
        {
            list.add(new int[] {(i * 31) % 97, i});
        }
        list.sort(Comparator.comparingInt(pair -> pair[0]));
        for (int i = 1; i < list.size(); i++)
        {
            final int[] before = list.get(i - 1);
            final int[] after = list.get(i);
            final boolean ordered = before[0] < after[0] || (before[0] == after[0] && before[1] < after[1]);
            assertEquals(true, ordered, "entries " + (i - 1) + " and " + i + " out of order or unstable");
        }
    }

    @Test
    void anEmptyListHasAnEmptyArray()
    {
        assertEquals(0, new ChunkedList<String>().toArray().length);
    }
}
