package io.ringwatch.replay;

/**
 * The pacing arithmetic of {@code republish}, free of clocks and sleeps so it can be tested: the
 * first revision is due at once and anchors both time lines; revision {@code i} is due
 * {@code (timestamp(i) - timestamp(first)) / speed} after the anchor. A timestamp that went back
 * (a wall clock stepped) is due at once. One thread; no allocation.
 */
final class Pacer
{
    /** Caps a due offset so that adding it to a nano clock reading cannot overflow. */
    private static final double MAX_OFFSET_NANOS = Long.MAX_VALUE / 4.0;

    private final Pace pace;
    private boolean anchored;
    private long firstTimestampNanos;
    private long anchorNanos;

    /**
     * Creates a pacer.
     *
     * @param pace the pace to keep.
     */
    Pacer(final Pace pace)
    {
        this.pace = pace;
    }

    /**
     * How long to wait before publishing a revision.
     *
     * @param timestampNanos the revision's recorded timestamp, epoch nanoseconds.
     * @param nowNanos       the current reading of a monotonic clock.
     * @return nanoseconds to wait; 0 when it is due.
     */
    long delayNanos(final long timestampNanos, final long nowNanos)
    {
        if (pace.unlimited())
        {
            return 0;
        }
        if (!anchored)
        {
            anchored = true;
            firstTimestampNanos = timestampNanos;
            anchorNanos = nowNanos;
            return 0;
        }
        final double offset = Math.min((timestampNanos - (double)firstTimestampNanos) / pace.speed(), MAX_OFFSET_NANOS);
        if (offset <= 0)
        {
            return 0;
        }
        return Math.max(0, anchorNanos + (long)offset - nowNanos);
    }
}
