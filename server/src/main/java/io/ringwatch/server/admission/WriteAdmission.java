package io.ringwatch.server.admission;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Measures the watch backlog of the streams whose clients read and sets the {@link WriteGate}'s
 * limit by the {@link AdmissionMarks}: the backlog is how many revisions the most behind watch of
 * a reading stream owes its client (counting the writes the gate let through that are not applied
 * yet), the window how many revisions the engine's watch window holds. While admitting, the limit
 * is that watch's position plus the high mark, which the gate enforces on every write between two
 * measurements; once the gate had to hold writes, or the backlog is past the high mark, the gate
 * is shut until the backlog is below the low mark. A measurement reads only the streams that are
 * behind (their watches with something to send); every other watch counts as in step with the
 * engine's revision. In memory a watch that falls out of the window
 * is cancelled (its client must relist), so writes wait while a reading client catches up
 * instead.
 *
 * <p>A stream counts as reading while it was ready to take a response within the last
 * {@code stallNanos}: a client that stops reading altogether is left out once that time has
 * passed, so it can hold the writers up at most that long, once, and its watches then fall behind
 * and are cancelled (or catch up from the log) as they would without admission. A client that
 * reads, however slowly, keeps counting.
 *
 * <p>One thread at a time calls {@link #evaluate} or {@link #admitFrom} (a watch pump; with several
 * pumps, whichever publishes while no other evaluates, which orders them); {@link #lowestReading}
 * and the figures may be called from any thread. Allocates nothing.
 */
public final class WriteAdmission
{
    /** How long a stream may go without being ready before it no longer counts as reading. */
    public static final long DEFAULT_STALL_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final AdmissionMarks marks;
    private final long stallNanos;
    private final WriteGate gate;
    private volatile long backlog;

    /**
     * @param marks      the rule.
     * @param stallNanos how long a stream may go without being ready and still count as reading.
     * @param gate       the gate the rule opens and shuts.
     * @throws IllegalArgumentException if {@code stallNanos} is negative.
     */
    public WriteAdmission(final AdmissionMarks marks, final long stallNanos, final WriteGate gate)
    {
        if (stallNanos < 0)
        {
            throw new IllegalArgumentException("stall time must not be negative: " + stallNanos);
        }
        this.marks = Objects.requireNonNull(marks, "marks");
        this.stallNanos = stallNanos;
        this.gate = Objects.requireNonNull(gate, "gate");
    }

    /**
     * Measures the backlog of the reading streams and sets the gate's limit. Only the streams that
     * are behind are measured: a watch that has handed its stream everything it was given is in
     * step, at {@code inStep}, so a measurement costs the watches that have something to send, not
     * every watch. {@link #lowestReading} then {@link #admitFrom}.
     *
     * @param behind          the open streams that have watches with something to send (their
     *                        positions count only those watches).
     * @param inStep          where the other watches are: the engine's current revision while
     *                        any watch is live, {@link Long#MAX_VALUE} when none is.
     * @param nowNanos        {@link System#nanoTime()} now.
     * @param currentRevision the engine's current revision.
     * @param windowRevisions the revisions the engine's watch window holds ({@link #windowRevisions}).
     * @return whether writes are admitted.
     */
    public boolean evaluate(final List<? extends WatchBacklog> behind, final long inStep, final long nowNanos,
        final long currentRevision, final long windowRevisions)
    {
        return admitFrom(Math.min(inStep, lowestReading(behind, nowNanos)), currentRevision, windowRevisions);
    }

    /**
     * The lowest position among the streams behind whose clients read (ready within the stall
     * time). Reads only its arguments and the stall time, so each watch pump may run it over its own
     * streams on its own thread; allocates nothing.
     *
     * @param behind   streams with watches that have something to send.
     * @param nowNanos {@link System#nanoTime()} now.
     * @return their lowest position, {@link Long#MAX_VALUE} when none of them reads.
     */
    public long lowestReading(final List<? extends WatchBacklog> behind, final long nowNanos)
    {
        long lowest = Long.MAX_VALUE;
        for (int i = 0; i < behind.size(); i++)
        {
            final WatchBacklog stream = behind.get(i);
            if (nowNanos - stream.lastReadyNanos() <= stallNanos)
            {
                lowest = Math.min(lowest, stream.position());
            }
        }
        return lowest;
    }

    /**
     * Sets the gate's limit from the slowest reading watch's position, however it was found (one
     * pump's streams, or the least over every pump's). One thread at a time.
     *
     * @param lowest          the lowest position of a reading watch, the engine's revision when all
     *                        are in step, {@link Long#MAX_VALUE} when no watch is live.
     * @param currentRevision the engine's current revision.
     * @param windowRevisions the revisions the engine's watch window holds ({@link #windowRevisions}).
     * @return whether writes are admitted.
     */
    public boolean admitFrom(final long lowest, final long currentRevision, final long windowRevisions)
    {
        final long owed = lowest == Long.MAX_VALUE ? 0 : Math.max(0, currentRevision + gate.passing() - lowest);
        backlog = owed;
        final boolean admit = marks.admit(owed, windowRevisions, gate.heldNow() > 0);
        final long limit;
        if (!admit)
        {
            limit = WriteGate.SHUT;
        }
        else
        {
            limit = lowest == Long.MAX_VALUE ? WriteGate.UNLIMITED : lowest + marks.highMark(windowRevisions);
        }
        gate.admitThrough(limit);
        return admit;
    }

    /**
     * How many revisions the watch window holds, from its figures: while it is not full, its
     * capacity (every revision has at least one event, so at least that many revisions fit
     * before it drops one); once full, the revisions it spans, fewer than its capacity when
     * revisions carry several events.
     *
     * @param currentRevision the engine's current revision.
     * @param oldestRevision  the oldest revision the window holds.
     * @param events          events it holds.
     * @param capacity        its capacity in events.
     * @return the revisions it holds, at least 1.
     */
    public static long windowRevisions(final long currentRevision, final long oldestRevision, final long events, final int capacity)
    {
        if (events < capacity)
        {
            return capacity;
        }
        return Math.max(1, currentRevision - oldestRevision + 1);
    }

    /**
     * @return the backlog measured last, in revisions (0 before any or with no reading watch).
     */
    public long backlog()
    {
        return backlog;
    }

    /**
     * @return the gate this admission drives.
     */
    public WriteGate gate()
    {
        return gate;
    }
}
