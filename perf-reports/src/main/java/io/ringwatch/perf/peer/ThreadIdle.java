package io.ringwatch.perf.peer;

import io.ringwatch.engine.idle.WakeableIdleStrategy;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

import java.util.function.Supplier;

/**
 * An Agrona idle strategy for RingWatch's dispatcher and delivery threads and the harness's pull
 * pollers, by name. A harness pull poller is never rung by the engine, so {@code wakeable} parks
 * there until its timeout, like a sleeping strategy.
 */
public enum ThreadIdle
{
    /**
     * The engine's default: spin briefly (and for 50 µs more on 8 or more processors), then park
     * until the engine hands the thread work (or 1 ms passes).
     */
    WAKEABLE(WakeableIdleStrategy::forHandOffs),
    /** Spin, then yield, then park from 1 µs up to 1 ms. */
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
