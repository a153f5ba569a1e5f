package io.ringwatch.perf.peer;

import com.lmax.disruptor.BlockingWaitStrategy;
import com.lmax.disruptor.BusySpinWaitStrategy;
import com.lmax.disruptor.SleepingWaitStrategy;
import com.lmax.disruptor.WaitStrategy;
import com.lmax.disruptor.YieldingWaitStrategy;

import java.util.function.Supplier;

/**
 * The RingWatch writer thread's Disruptor wait strategy, by name. Blocking (the engine's default)
 * frees the core when idle but every publish pays a signal; busy-spin is fastest and takes a core
 * for good; yielding and sleeping sit in between.
 */
public enum WriterWait
{
    /** {@link BlockingWaitStrategy}. */
    BLOCKING(BlockingWaitStrategy::new),
    /** {@link SleepingWaitStrategy}. */
    SLEEPING(SleepingWaitStrategy::new),
    /** {@link YieldingWaitStrategy}. */
    YIELDING(YieldingWaitStrategy::new),
    /** {@link BusySpinWaitStrategy}. */
    BUSY_SPIN(BusySpinWaitStrategy::new);

    private final Supplier<WaitStrategy> factory;

    WriterWait(final Supplier<WaitStrategy> factory)
    {
        this.factory = factory;
    }

    /**
     * @return makes the strategy (one per engine).
     */
    public Supplier<WaitStrategy> factory()
    {
        return factory;
    }
}
