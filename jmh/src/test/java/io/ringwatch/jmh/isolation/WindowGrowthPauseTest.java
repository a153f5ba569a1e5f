package io.ringwatch.jmh.isolation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class WindowGrowthPauseTest
{
    @Test
    void aSmallRunGrowsTheWindowAndReportsItsLongestAppendsLongestFirst() throws InterruptedException
    {
        final WindowGrowthPause.Pauses pauses = WindowGrowthPause.measure(5_000, 1_000_000, true);

        assertEquals(5_000, pauses.events());
        assertEquals(3, pauses.growths(), "1,024 to 8,192: " + pauses);
        assertEquals(8_192, pauses.capacity());
        for (int i = 1; i < pauses.longest().length; i++)
        {
            assertTrue(pauses.longest()[i - 1] >= pauses.longest()[i], pauses.toString());
            assertTrue(pauses.longestAt()[i] >= 0 && pauses.longestAt()[i] < 5_000, pauses.toString());
        }
    }

    @Test
    void noEventsIsRefused()
    {
        assertThrows(IllegalArgumentException.class, () -> WindowGrowthPause.measure(0, 1, false));
    }
}
