package io.ringwatch.perf.load;

/**
 * The fixed-rate schedule of a run: write {@code i} is meant to be sent at
 * {@code start + i / rate}. Latency is measured from this intended time, not from when the write
 * was actually sent, so a stalled producer or engine cannot hide the writes it delayed
 * (coordinated omission). Immutable and thread-safe; allocates nothing.
 */
public final class SendSchedule
{
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final long startNanos;
    private final long ratePerSecond;

    /**
     * @param startNanos    the {@link System#nanoTime()} of write 0.
     * @param ratePerSecond writes per second; positive.
     * @throws IllegalArgumentException if the rate is not positive.
     */
    public SendSchedule(final long startNanos, final long ratePerSecond)
    {
        if (ratePerSecond <= 0)
        {
            throw new IllegalArgumentException("rate must be positive: " + ratePerSecond);
        }
        this.startNanos = startNanos;
        this.ratePerSecond = ratePerSecond;
    }

    /**
     * @param index the write's position in the run, from 0.
     * @return the nano time the write is meant to be sent at.
     * @throws IllegalArgumentException if the index is negative.
     */
    public long intendedNanos(final long index)
    {
        if (index < 0)
        {
            throw new IllegalArgumentException("write index must not be negative: " + index);
        }
        // Whole seconds first, then the remainder: exact and free of overflow for any run length.
        final long wholeSeconds = index / ratePerSecond;
        final long remainder = index % ratePerSecond;
        return startNanos + wholeSeconds * NANOS_PER_SECOND + remainder * NANOS_PER_SECOND / ratePerSecond;
    }

    /**
     * @param offsetNanos time after the start; not negative.
     * @return how many writes are scheduled before {@code start + offsetNanos}; equally, the index
     * of the first write scheduled at or after it.
     */
    public long writesBefore(final long offsetNanos)
    {
        if (offsetNanos < 0)
        {
            throw new IllegalArgumentException("offset must not be negative: " + offsetNanos);
        }
        final long wholeSeconds = offsetNanos / NANOS_PER_SECOND;
        final long remainder = offsetNanos % NANOS_PER_SECOND;
        // Ceiling of remainder * rate / 1e9: a write exactly at the offset is not before it.
        return wholeSeconds * ratePerSecond + (remainder * ratePerSecond + NANOS_PER_SECOND - 1) / NANOS_PER_SECOND;
    }

    /**
     * @return the nano time of write 0.
     */
    public long startNanos()
    {
        return startNanos;
    }

    /**
     * @return writes per second.
     */
    public long ratePerSecond()
    {
        return ratePerSecond;
    }
}
