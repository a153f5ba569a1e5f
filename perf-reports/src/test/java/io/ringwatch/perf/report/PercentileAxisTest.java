package io.ringwatch.perf.report;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class PercentileAxisTest
{
    @Test
    void eachNineIsOneStep()
    {
        assertEquals(0, PercentileAxis.nines(0, 6), 1e-9);
        assertEquals(1, PercentileAxis.nines(90, 6), 1e-9);
        assertEquals(2, PercentileAxis.nines(99, 6), 1e-9);
        assertEquals(3, PercentileAxis.nines(99.9, 6), 1e-9);
        assertEquals(4, PercentileAxis.nines(99.99, 6), 1e-9);
        assertEquals(Math.log10(2), PercentileAxis.nines(50, 6), 1e-9);
    }

    @Test
    void oneHundredPercentAndBeyondTheDataSitAtTheEnd()
    {
        assertEquals(4, PercentileAxis.nines(100, 4), 1e-9);
        assertEquals(4, PercentileAxis.nines(99.9999, 4), 1e-9);
    }

    @Test
    void theLastMeaningfulNineComesFromTheCount()
    {
        assertEquals(6, PercentileAxis.lastNines(1_000_000), 1e-9);
        assertEquals(1, PercentileAxis.lastNines(3), 1e-9);
        assertEquals(1, PercentileAxis.lastNines(0), 1e-9);
    }

    @Test
    void labelsReadAsPercentiles()
    {
        assertEquals("0%", PercentileAxis.label(0));
        assertEquals("90%", PercentileAxis.label(1));
        assertEquals("99%", PercentileAxis.label(2));
        assertEquals("99.9%", PercentileAxis.label(3));
        assertEquals("99.9999%", PercentileAxis.label(6));
    }
}
