package io.ringwatch.jmh.isolation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class IndexOpCostTest
{
    @Test
    void aSmallRunReadsEveryKeyItInsertedAndReportsFourPositiveCosts()
    {
        final double[] costs = IndexOpCost.measure(20_000);

        assertEquals(4, costs.length);
        for (final double cost : costs)
        {
            assertTrue(cost > 0, "a CPU time per operation: " + cost);
        }
    }
}
