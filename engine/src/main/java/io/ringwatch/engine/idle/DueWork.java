package io.ringwatch.engine.idle;

/**
 * Work of a thread that rings no doorbell but falls due at a time (a periodic progress
 * notification, a retry, a thread's retirement): the thread's idle strategy asks before each park
 * how long it may sleep, so that a deep park ({@link WakeableIdleStrategy#DEEP_IDLE_AFTER_NANOS})
 * does not delay it. Called on the owner thread only, before a park; must not allocate.
 */
@FunctionalInterface
public interface DueWork
{
    /** {@link #nanosUntilDue(long)}'s answer when no such work is pending. */
    long NONE = Long.MAX_VALUE;

    /**
     * @param nowNanos {@link System#nanoTime()} now.
     * @return nanoseconds until the earliest pending work falls due; 0 or less for work that
     * must be polled at the shallow park's pace (a retry), {@link #NONE} for none. Owner thread;
     * no allocation.
     */
    long nanosUntilDue(long nowNanos);
}
