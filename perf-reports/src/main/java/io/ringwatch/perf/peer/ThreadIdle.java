package io.ringwatch.perf.peer;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

import java.util.function.Supplier;

/**
 * An Agrona idle strategy for RingWatch's dispatcher and delivery threads and the harness's pull
 * pollers, by name. Backoff is the engine's default (spin, yield, then park up to 1 ms).
 */
public enum ThreadIdle
{
    /** Spin, then yield, then park from 1 µs up to 1 ms: the engine's default. */
    BACKOFF(() -> new BackoffIdleStrategy(10, 5, 1_000, 1_000_000)),
    /** Park 1 µs each time (in practice the timer slack, tens of µs). */
    SLEEPING(() -> new SleepingIdleStrategy(1_000)),
    /** Thread.yield(). */
    YIELDING(YieldingIdleStrategy::new),
    /** Busy-spin. */
    BUSY_SPIN(BusySpinIdleStrategy::new);

    private final Supplier<IdleStrategy> factory;

    ThreadIdle(final Supplier<IdleStrategy> factory)
    {
        this.factory = factory;
    }

    /**
     * @return makes the strategy (one per thread).
     */
    public Supplier<IdleStrategy> factory()
    {
        return factory;
    }
}
