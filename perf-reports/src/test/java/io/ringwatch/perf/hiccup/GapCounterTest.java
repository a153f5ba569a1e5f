package io.ringwatch.perf.hiccup;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class GapCounterTest
{
    private static final long[] THRESHOLDS = {20_000, 100_000, 1_000_000};

    @Test
    void aGapCountsUnderEveryThresholdItExceedsAndTheLongestIsKept()
    {
        final GapCounter counter = new GapCounter(THRESHOLDS, 0);
        counter.observe(50);            // 50 ns: no gap worth counting
        counter.observe(50 + 30_000);   // 30 us: over 20 us only
        counter.observe(30_050 + 150_000); // 150 us: over 20 and 100 us
        counter.observe(180_050 + 2_500_000); // 2.5 ms: over all three

        assertEquals(3, counter.countOver(0));
        assertEquals(2, counter.countOver(1));
        assertEquals(1, counter.countOver(2));
        assertEquals(2_500_000, counter.longestNanos());
    }

    @Test
    void aGapExactlyAtAThresholdDoesNotExceedIt()
    {
        final GapCounter counter = new GapCounter(THRESHOLDS, 1_000);
        counter.observe(1_000 + 20_000);
        counter.observe(21_000 + 100_000);

        assertEquals(1, counter.countOver(0));
        assertEquals(0, counter.countOver(1));
        assertEquals(100_000, counter.longestNanos());
    }

    @Test
    void aThreadThatIsNeverDescheduledReportsNoGaps()
    {
        final GapCounter counter = new GapCounter(THRESHOLDS, 0);
        for (long t = 100; t <= 10_000_000; t += 100)
        {
            counter.observe(t);
        }

        assertEquals(0, counter.countOver(0));
        assertEquals(0, counter.longestNanos());
    }
}
