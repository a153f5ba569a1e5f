package io.ringwatch.engine.stats;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A count of timed operations, their total and their longest duration, written by one thread and
 * read by any (a Micrometer {@code FunctionTimer} or {@code TimeGauge} reads it when scraped).
 *
 * <p>Threads: {@link #record} from one thread only (the thread that does the work: the journal
 * thread for appends and flushes, the snapshotter for snapshots); the readers from any thread.
 * Each field is written with an opaque store (a plain move on x86, never reordered away by the
 * JIT) and read with an opaque load, so a reader sees each value whole, but may see a count
 * without its matching total for one sample: a gauge, not a transaction. Allocation: none.
 */
public final class TimingCounter
{
    private static final VarHandle COUNT;
    private static final VarHandle TOTAL_NANOS;
    private static final VarHandle MAX_NANOS;
    private static final VarHandle LAST_NANOS;

    static
    {
        try
        {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            COUNT = lookup.findVarHandle(TimingCounter.class, "count", long.class);
            TOTAL_NANOS = lookup.findVarHandle(TimingCounter.class, "totalNanos", long.class);
            MAX_NANOS = lookup.findVarHandle(TimingCounter.class, "maxNanos", long.class);
            LAST_NANOS = lookup.findVarHandle(TimingCounter.class, "lastNanos", long.class);
        }
        catch (final ReflectiveOperationException e)
        {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused")
    private long count;
    @SuppressWarnings("unused")
    private long totalNanos;
    @SuppressWarnings("unused")
    private long maxNanos;
    @SuppressWarnings("unused")
    private long lastNanos;

    /**
     * Adds {@code operations} operations that together took {@code nanos}. The recording thread
     * only; allocates nothing.
     *
     * @param operations how many operations the duration covers (at least 1).
     * @param nanos      how long they took together.
     */
    public void record(final long operations, final long nanos)
    {
        COUNT.setOpaque(this, (long)COUNT.get(this) + operations);
        TOTAL_NANOS.setOpaque(this, (long)TOTAL_NANOS.get(this) + nanos);
        LAST_NANOS.setOpaque(this, nanos);
        if (nanos > (long)MAX_NANOS.get(this))
        {
            MAX_NANOS.setOpaque(this, nanos);
        }
    }

    /**
     * @return the operations recorded so far. Any thread.
     */
    public long count()
    {
        return (long)COUNT.getOpaque(this);
    }

    /**
     * @return their total duration in nanoseconds. Any thread.
     */
    public long totalNanos()
    {
        return (long)TOTAL_NANOS.getOpaque(this);
    }

    /**
     * @return the longest single recording in nanoseconds (one batch of operations). Any thread.
     */
    public long maxNanos()
    {
        return (long)MAX_NANOS.getOpaque(this);
    }

    /**
     * @return the duration of the latest recording in nanoseconds, 0 before the first. Any thread.
     */
    public long lastNanos()
    {
        return (long)LAST_NANOS.getOpaque(this);
    }

    @Override
    public String toString()
    {
        return "TimingCounter{count=" + count() + ", totalNanos=" + totalNanos() + ", maxNanos=" + maxNanos() + "}";
    }
}
