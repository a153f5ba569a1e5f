package io.ringwatch.persistence;

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
 * Package-private. {@link #pin()} and {@link #unpin()} on the appending thread (around one append,
 * or around a batch);
 * {@link #currentTimeMillis()} on any thread; no allocation.
 */
final class AppendClock implements TimeProvider
{
    private final LongSupplier clockMillis;
    /** The thread an append pinned the time for; only that thread reads {@link #pinnedMillis}. */
    private Thread pinnedBy;
    private long pinnedMillis;

    AppendClock(final LongSupplier clockMillis)
    {
        this.clockMillis = clockMillis;
    }

    /** Reads the clock once for the append the calling thread is about to make. */
    void pin()
    {
        pinnedMillis = clockMillis.getAsLong();
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
        return pinnedBy == Thread.currentThread() ? pinnedMillis : clockMillis.getAsLong();
    }
}
