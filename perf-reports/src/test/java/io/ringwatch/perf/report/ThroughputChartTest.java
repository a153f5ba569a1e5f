package io.ringwatch.perf.report;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ThroughputChartTest
{
    @Test
    void ticksStepInOnesTwosAndFives()
    {
        assertEquals(1, ThroughputChart.niceStep(0.7), 1e-9);
        assertEquals(2, ThroughputChart.niceStep(1.3), 1e-9);
        assertEquals(50_000, ThroughputChart.niceStep(41_000), 1e-9);
        assertEquals(100_000, ThroughputChart.niceStep(55_000), 1e-9);
        assertEquals(100, ThroughputChart.niceStep(100), 1e-9);
    }
}
