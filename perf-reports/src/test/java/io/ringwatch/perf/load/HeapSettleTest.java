package io.ringwatch.perf.load;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertTrue;

class HeapSettleTest
{
    @Test
    void aSettledHeapKeepsItsCommittedSize()
    {
        final byte[][] setup = new byte[64][];
        for (int i = 0; i < setup.length; i++)
        {
            setup[i] = new byte[64 * 1024];
        }
        final long committedBefore = Runtime.getRuntime().totalMemory();

        HeapSettle.settle();

        assertTrue(HeapSettle.keepsHeapSize(), "full collections no longer shrink the heap");
        assertTrue(Runtime.getRuntime().totalMemory() >= committedBefore,
            "committed " + Runtime.getRuntime().totalMemory() + " after, " + committedBefore + " before");
        assertTrue(setup[setup.length - 1].length > 0);
    }
}
