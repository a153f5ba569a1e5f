package io.ringwatch.jmh.isolation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class IndexGrowthPauseTest
{
    @Test
    void aSmallRunReportsItsLongestPutsLongestFirst()
    {
        final IndexGrowthPause.Pauses pauses = IndexGrowthPause.measure(20_000);

        assertEquals(20_000, pauses.keys());
        for (int i = 1; i < pauses.longest().length; i++)
        {
            assertTrue(pauses.longest()[i - 1] >= pauses.longest()[i], pauses.toString());
            assertTrue(pauses.longestAt()[i] >= 1 && pauses.longestAt()[i] <= 20_000, pauses.toString());
        }
    }

    @Test
    void noKeysIsRefused()
    {
        assertThrows(IllegalArgumentException.class, () -> IndexGrowthPause.measure(0));
    }
}
