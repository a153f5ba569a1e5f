package io.ringwatch.jmh.engine;

import com.lmax.disruptor.BlockingWaitStrategy;
import com.lmax.disruptor.BusySpinWaitStrategy;
import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.TimeoutException;
import com.lmax.disruptor.WaitStrategy;
import com.lmax.disruptor.dsl.Disruptor;
import com.lmax.disruptor.dsl.ProducerType;
import com.lmax.disruptor.util.DaemonThreadFactory;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.idle.WakeableWaitStrategy;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The bare-ring baseline: a Disruptor shaped like the engine's write ring (multi-producer claim, the
 * engine's default ring size, one handler thread) whose handler ignores the payload and only hands
 * the slot back, so it measures what the ring and the blocking hand-back cost without any engine
 * work. {@link #waitStrategy} picks the handler's wait: {@code WAKEABLE} is the engine's default
 * writer wait strategy, {@code BLOCKING} the Disruptor's default, {@code BUSY_SPIN} the low-latency
 * choice (it takes a whole core).
 * <p>
 * One per producer thread; started and stopped once per trial on the JMH worker thread.
 */
@State(Scope.Thread)
public class DisruptorState
{
    /** How the handler thread waits for work. */
    public enum HandlerWait
    {
        /**
         * {@link WakeableWaitStrategy}, the engine's default writer wait strategy: spins, yields,
         * then parks until a publish wakes it.
         */
        WAKEABLE(WakeableWaitStrategy::new),
        /** The Disruptor's default: a monitor that every publish takes and notifies. */
        BLOCKING(BlockingWaitStrategy::new),
        /** Spins on the cursor: lowest latency, one core busy. */
        BUSY_SPIN(BusySpinWaitStrategy::new);

        private final Supplier<WaitStrategy> factory;

        HandlerWait(final Supplier<WaitStrategy> factory)
        {
            this.factory = factory;
        }

        /**
         * @return a new instance of the strategy, for one ring. Allocates it.
         */
        WaitStrategy newStrategy()
        {
            return factory.get();
        }
    }

    private static final long SHUTDOWN_SECONDS = 30;

    /** The handler's wait strategy. */
    @Param({"WAKEABLE", "BLOCKING", "BUSY_SPIN"})
    public HandlerWait waitStrategy;

    RingBuffer<PutSlot> ring;
    Rendezvous rendezvous;
    WriteKeys keys;
    private Disruptor<PutSlot> disruptor;

    /**
     * Starts the ring and its handler thread. JMH worker thread, once per trial; allocates the ring
     * and its slots.
     */
    @Setup(Level.Trial)
    public void start()
    {
        disruptor = new Disruptor<>(PutSlot::new, RingWatchConfig.defaults().writeRingSize(), DaemonThreadFactory.INSTANCE,
            ProducerType.MULTI, waitStrategy.newStrategy());
        disruptor.handleEventsWith((slot, sequence, endOfBatch) -> slot.complete());
        ring = disruptor.start();
        rendezvous = new Rendezvous();
        keys = new WriteKeys();
    }

    /**
     * Stops the handler thread once every published slot is handled. JMH worker thread, once per
     * trial.
     *
     * @throws TimeoutException if the handler does not drain in time.
     */
    @TearDown(Level.Trial)
    public void stop() throws TimeoutException
    {
        disruptor.shutdown(SHUTDOWN_SECONDS, TimeUnit.SECONDS);
    }
}
