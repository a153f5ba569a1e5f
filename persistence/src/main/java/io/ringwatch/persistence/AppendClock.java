package io.ringwatch.persistence;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import net.openhft.chronicle.core.time.TimeProvider;

/**
 * The revision log's clock for Chronicle's cycle arithmetic, read ONCE per append (or once per
 * batch of appends, {@link RevisionLog#beginBatch}): the disk-space
 * check ({@link SpaceGuard#beforeAppend}, which must know whether the append rolls to a new cycle
 * file) and the appender (which picks that file) both ask the queue for its current cycle, each
 * through this clock. Pinned for an append, it answers the appending thread with the time read
 * at the pin, so the two agree on the cycle even across a cycle boundary, and the append costs one
 * clock read instead of two (at 200,000 appends a second the second read was a tenth of an
 * append's CPU). Every other thread, and the appending thread outside an append, reads the clock.
 * <p>
 * It never goes back: it answers at least the start of the newest cycle file at the open
 * ({@link #holdAtLeast}) and the latest time pinned. A wall clock that steps back across a roll
 * boundary (NTP correcting a clock that ran fast at midnight, a host back from a crash with its
 * clock behind) would otherwise send the appender to an earlier cycle file than one already
 * written: Chronicle ended that file when it rolled, so the append fails, or the revisions land in
 * a file before their predecessors' and a reopen takes the log for one with a file missing.
 * <p>
 * Package-private. {@link #pin()} and {@link #unpin()} on the appending thread (around one append,
 * or around a batch), {@link #holdAtLeast} on the opening thread before the first append;
 * {@link #currentTimeMillis()} on any thread; no allocation.
 */
final class AppendClock implements TimeProvider
{
    private final LongSupplier clockMillis;
    /** The least time answered; raised by the appending thread only (ordered stores), read by any. */
    private final AtomicLong floorMillis = new AtomicLong(Long.MIN_VALUE);
    /** The thread an append pinned the time for; only that thread reads {@link #pinnedMillis}. */
    private Thread pinnedBy;
    private long pinnedMillis;

    AppendClock(final LongSupplier clockMillis)
    {
        this.clockMillis = clockMillis;
    }

    /**
     * Answers no earlier time than {@code millis} from now on.
     *
     * @param millis the start of the newest cycle file in the log.
     */
    void holdAtLeast(final long millis)
    {
        if (millis > floorMillis.get())
        {
            floorMillis.set(millis);
        }
    }

    /** Reads the clock once for the append the calling thread is about to make (never earlier than the last pin). */
    void pin()
    {
        final long now = clockMillis.getAsLong();
        final long floor = floorMillis.get();
        if (now > floor)
        {
            floorMillis.lazySet(now);
            pinnedMillis = now;
        }
        else
        {
            pinnedMillis = floor;
        }
        pinnedBy = Thread.currentThread();
    }

    /** Ends the calling thread's append: it reads the clock again from now on. */
    void unpin()
    {
        pinnedBy = null;
    }

    @Override
    public long currentTimeMillis()
    {
        // Another thread may read a stale pinnedBy, but never its own identity from a pin it did not make.
        return pinnedBy == Thread.currentThread() ? pinnedMillis : Math.max(clockMillis.getAsLong(), floorMillis.get());
    }
}
