package io.ringwatch.perf.report;

import org.HdrHistogram.Histogram;

/**
 * One second of a peer's measured phase: how many latencies were recorded in it and their
 * percentiles, so a stall or a GC pause can be placed in time. Immutable; thread-safe.
 *
 * @param seconds   the end of the interval, in seconds since the measured phase started.
 * @param count     latencies recorded in the interval.
 * @param p50Nanos  the median, nanoseconds.
 * @param p99Nanos  the 99th percentile, nanoseconds.
 * @param p999Nanos the 99.9th percentile, nanoseconds.
 * @param maxNanos  the largest, nanoseconds.
 */
public record TimelinePoint(double seconds, long count, long p50Nanos, long p99Nanos, long p999Nanos, long maxNanos)
{
    /**
     * The point of one interval's histogram.
     *
     * @param seconds  the end of the interval, seconds since the measured phase started.
     * @param interval what was recorded in the interval, nanoseconds.
     * @return the point.
     */
    public static TimelinePoint of(final double seconds, final Histogram interval)
    {
        return new TimelinePoint(seconds, interval.getTotalCount(), interval.getValueAtPercentile(50),
            interval.getValueAtPercentile(99), interval.getValueAtPercentile(99.9), interval.getMaxValue());
    }
}
