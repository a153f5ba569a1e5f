package io.ringwatch.perf.report;

import java.math.BigDecimal;

/**
 * The percentile axis of a latency distribution plot, as HdrHistogram's plotter draws it: position
 * {@code log10(1 / (1 - p))}, so 0%, 90%, 99%, 99.9%... are evenly spaced, one decade ("a nine")
 * apart. Stateless; any thread.
 */
public final class PercentileAxis
{
    private PercentileAxis()
    {
    }

    /**
     * @param percentile 0 to 100.
     * @param lastNines  the position 100% (and anything past it) is drawn at.
     * @return the position in nines: 0 for 0%, 1 for 90%, 2 for 99%...
     */
    public static double nines(final double percentile, final double lastNines)
    {
        if (percentile >= 100)
        {
            return lastNines;
        }
        final double position = Math.log10(100.0 / (100.0 - Math.max(0, percentile)));
        return Math.min(position, lastNines);
    }

    /**
     * @param totalCount values in the histogram.
     * @return the position of its highest meaningful percentile, {@code log10(count)}: with n values
     * the percentile 1 - 1/n is the last one that differs from the maximum.
     */
    public static double lastNines(final long totalCount)
    {
        return Math.max(1, Math.log10(Math.max(1, totalCount)));
    }

    /**
     * @param nines a whole number of nines, 0 or more.
     * @return the tick label: "0%", "90%", "99%", "99.9%"...
     */
    public static String label(final int nines)
    {
        if (nines == 0)
        {
            return "0%";
        }
        return BigDecimal.valueOf(100).subtract(BigDecimal.ONE.movePointLeft(nines - 2)).stripTrailingZeros()
            .toPlainString() + "%";
    }
}
