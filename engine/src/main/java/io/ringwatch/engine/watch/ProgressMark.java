package io.ringwatch.engine.watch;

/**
 * A progress notification where it fell among the events of one {@link WatchResponse}: after the
 * first {@code position} events of {@link WatchResponse#events()} and before the rest. Every event
 * of the watch at or below {@code revision} is among those first {@code position} events or in an
 * earlier response; every event after the mark, in this response or a later one, is of a higher
 * revision. Immutable and thread-safe.
 *
 * @param position how many of the response's events come before the mark (0 to their count).
 * @param revision the revision the watch is complete up to; 0 before the engine's first write.
 */
public record ProgressMark(int position, long revision)
{
    /**
     * @param position how many of the response's events come before the mark; not negative.
     * @param revision the revision the watch is complete up to; not negative.
     * @throws IllegalArgumentException if the position or the revision is negative.
     */
    public ProgressMark
    {
        if (position < 0)
        {
            throw new IllegalArgumentException("progress mark position must not be negative: " + position);
        }
        if (revision < 0)
        {
            throw new IllegalArgumentException("progress mark revision must not be negative: " + revision);
        }
    }
}
