package io.ringwatch.perf.hiccup;

/**
 * Counts the gaps between successive clock readings of one spinning thread that exceed each of a
 * set of thresholds, and keeps the longest: a thread that never blocks sees a gap only when the
 * machine took its core away (the scheduler, the hypervisor, an interrupt storm). One thread only;
 * allocates nothing after construction.
 */
final class GapCounter
{
    private final long[] thresholdsNanos;
    private final long[] counts;
    private long longestNanos;
    private long previousNanos;

    /**
     * @param thresholdsNanos ascending gap thresholds, in nanoseconds.
     * @param startNanos      the first clock reading.
     */
    GapCounter(final long[] thresholdsNanos, final long startNanos)
    {
        this.thresholdsNanos = thresholdsNanos.clone();
        this.counts = new long[thresholdsNanos.length];
        this.previousNanos = startNanos;
    }

    /**
     * Takes the next clock reading.
     *
     * @param nowNanos the reading, not before the previous one.
     */
    void observe(final long nowNanos)
    {
        final long gap = nowNanos - previousNanos;
        previousNanos = nowNanos;
        if (gap <= thresholdsNanos[0])
        {
            return;
        }
        for (int i = 0; i < thresholdsNanos.length && gap > thresholdsNanos[i]; i++)
        {
            counts[i]++;
        }
        longestNanos = Math.max(longestNanos, gap);
    }

    /**
     * @param threshold index into the thresholds given at construction.
     * @return how many gaps exceeded that threshold.
     */
    long countOver(final int threshold)
    {
        return counts[threshold];
    }

    /**
     * @return the longest gap seen, in nanoseconds (0 if none exceeded the smallest threshold).
     */
    long longestNanos()
    {
        return longestNanos;
    }
}
