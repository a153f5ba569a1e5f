package io.ringwatch.perf.load;

import java.util.concurrent.locks.LockSupport;

/**
 * How a producer waits for a write's intended send time. Spinning is the most punctual but takes a
 * core; yielding gives the core to the engine's threads when they need it (the default on small
 * machines); parking sleeps but oversleeps by the timer slack (tens of microseconds), which shows
 * up as latency because latency counts from the intended time.
 */
public enum ProducerWait
{
    /** Busy-spin. */
    SPIN
    {
        @Override
        public void idle(final long remainingNanos)
        {
            Thread.onSpinWait();
        }
    },
    /** Thread.yield(). */
    YIELD
    {
        @Override
        public void idle(final long remainingNanos)
        {
            Thread.yield();
        }
    },
    /** Park for the time remaining. */
    PARK
    {
        @Override
        public void idle(final long remainingNanos)
        {
            LockSupport.parkNanos(remainingNanos);
        }
    };

    /**
     * Waits a little; the caller re-checks the clock. Called on a producer thread; allocates nothing.
     *
     * @param remainingNanos time left until the next write is due.
     */
    public abstract void idle(long remainingNanos);
}
