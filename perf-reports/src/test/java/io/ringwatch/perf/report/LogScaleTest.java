package io.ringwatch.perf.report;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class LogScaleTest
{
    @Test
    void decadesAreEvenlySpaced()
    {
        final LogScale scale = new LogScale(0, 3, 400, 100);

        assertEquals(400, scale.pixel(1), 1e-9);
        assertEquals(300, scale.pixel(10), 1e-9);
        assertEquals(200, scale.pixel(100), 1e-9);
        assertEquals(100, scale.pixel(1_000), 1e-9);
        assertEquals(400 - 100 * Math.log10(5), scale.pixel(5), 1e-9);
    }

    @Test
    void valuesOutsideTheAxisAreClamped()
    {
        final LogScale scale = new LogScale(0, 2, 0, 200);

        assertEquals(0, scale.pixel(0.01), 1e-9);
        assertEquals(0, scale.pixel(0), 1e-9);
        assertEquals(200, scale.pixel(1e9), 1e-9);
    }

    @Test
    void coveringRoundsOutToWholeDecades()
    {
        final LogScale scale = LogScale.covering(3.2, 4_500, 0, 1);

        assertEquals(0, scale.lowDecade());
        assertEquals(4, scale.highDecade());
        assertEquals(-1, LogScale.covering(0.5, 0.5, 0, 1).lowDecade());
        assertEquals(0, LogScale.covering(0.5, 0.5, 0, 1).highDecade());
    }

    @Test
    void refusesAnEmptyAxis()
    {
        assertThrows(IllegalArgumentException.class, () -> new LogScale(2, 2, 0, 1));
    }
}
