package io.ringwatch.perf.peer;

import com.lmax.disruptor.BlockingWaitStrategy;
import com.lmax.disruptor.BusySpinWaitStrategy;
import com.lmax.disruptor.SleepingWaitStrategy;
import com.lmax.disruptor.WaitStrategy;
import com.lmax.disruptor.YieldingWaitStrategy;
import io.ringwatch.engine.idle.WakeableWaitStrategy;

import java.util.Locale;
import java.util.function.Supplier;

/**
 * The Disruptor wait strategy of RingWatch's writer thread, and of the {@link DisruptorFloorPeer}'s
 * handler thread so the two compare like for like, by name. Wakeable parks when idle and a
 * publish pays a fence, plus an unpark only while the consumer parks; blocking frees the core too but
 * every publish takes a lock and signals; busy-spin is fastest and takes a core for good; yielding
 * and sleeping sit in between.
 */
public enum WriterWait
{
    /** {@link WakeableWaitStrategy}: spins briefly, yields a few times, then parks until a publish rings. */
    WAKEABLE(WakeableWaitStrategy::new),
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

    /**
     * @return the name {@code --writer-wait} takes for it ({@code busy-spin} for {@link #BUSY_SPIN}).
     */
    public String optionName()
    {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
