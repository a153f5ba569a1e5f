package io.ringwatch.perf.load;

import java.util.concurrent.locks.LockSupport;

/**
 * How a producer waits for a write's intended send time. Spinning is the most punctual but takes a
 * core; yielding gives the core to the engine's threads when they need it (the default on small
 * machines); parking sleeps but oversleeps by the timer slack (tens of microseconds), which shows
 * up as latency because latency counts from the intended time. Parking, then yielding for the
 * last {@link #PARK_MARGIN_NANOS}, is punctual without taking a core between writes.
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
    },
    /**
     * Park until {@link #PARK_MARGIN_NANOS} before the time, then yield: as punctual as yielding
     * while a park can oversleep by less than the margin, and a core free for the peer's threads
     * between writes. At 200,000 writes/s (5 µs apart) it only yields.
     */
    PARK_YIELD
    {
        @Override
        public void idle(final long remainingNanos)
        {
            final long parkNanos = parkBefore(remainingNanos);
            if (parkNanos > 0)
            {
                LockSupport.parkNanos(parkNanos);
            }
            else
            {
                Thread.yield();
            }
        }
    };

    /**
     * How long before the time {@link #PARK_YIELD} stops parking: above the timer slack (50 µs) and
     * a wake-up on an idle machine (tens of µs).
     */
    public static final long PARK_MARGIN_NANOS = 200_000;

    /**
     * @param remainingNanos time left until the next write is due.
     * @return how long {@link #PARK_YIELD} parks with that time left: all of it but the margin, or
     * 0 within the margin, where it yields instead.
     */
    static long parkBefore(final long remainingNanos)
    {
        return Math.max(0, remainingNanos - PARK_MARGIN_NANOS);
    }

    /**
     * Waits a little; the caller re-checks the clock. Called on a producer thread; allocates nothing.
     *
     * @param remainingNanos time left until the next write is due.
     */
    public abstract void idle(long remainingNanos);
}
