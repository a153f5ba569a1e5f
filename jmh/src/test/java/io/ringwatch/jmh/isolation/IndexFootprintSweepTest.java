package io.ringwatch.jmh.isolation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class IndexFootprintSweepTest
{
    @Test
    void aSmallSweepReportsEveryStepAndTwoHashTablesCostMoreThanOne()
    {
        final List<String> lines = new ArrayList<>();

        final IndexFootprintSweep.Sweep sweep = IndexFootprintSweep.sweep(20_000, 200_000, lines::add);

        assertEquals(10, lines.size());
        assertTrue(sweep.movingPuts() > 0, "a fill from 1,024 to 200,000 keys moves its hash table: " + sweep);
        assertTrue(sweep.movingPeak() > sweep.settledPeak(), sweep.toString());
        // nodes of 22-byte keys with 100-byte values take about 157.5 B; the table adds 10 to 12.5 B
        assertTrue(sweep.settledPeak() > 157 && sweep.settledPeak() < 185, sweep.toString());
    }

    @Test
    void aStepPastTheLastKeyIsRefused()
    {
        assertThrows(IllegalArgumentException.class, () -> IndexFootprintSweep.sweep(10, 5, line -> { }));
    }
}
