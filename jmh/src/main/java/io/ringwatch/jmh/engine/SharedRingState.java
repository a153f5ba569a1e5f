package io.ringwatch.jmh.engine;

import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.TimeoutException;
import com.lmax.disruptor.dsl.Disruptor;
import com.lmax.disruptor.dsl.ProducerType;
import com.lmax.disruptor.util.DaemonThreadFactory;
import io.ringwatch.engine.config.RingWatchConfig;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * The bare-ring baseline shared by every producer thread of a trial: a Disruptor shaped like the
 * engine's write ring (multi-producer claim, the engine's default ring size, one handler thread)
 * whose handler only reads each payload ({@link PayloadReader}). Each {@link RingProducer} claims,
 * fills and publishes, and waits only while the ring is full: what sequencing alone allows, with no
 * engine work behind it and no acknowledgement. {@link #waitStrategy} picks the handler's wait.
 * <p>
 * Started and stopped once per trial by one JMH worker thread; the tear-down runs once every producer
 * has stopped, waits for the handler to drain the ring and fails the trial unless it handled every
 * published slot and read the bytes its producers wrote.
 */
@State(Scope.Benchmark)
public class SharedRingState
{
    private static final long SHUTDOWN_SECONDS = 30;

    /** The handler's wait strategy: the engine writer's default or busy-spin. */
    @Param({"WAKEABLE", "BUSY_SPIN"})
    public DisruptorState.HandlerWait waitStrategy;

    private final List<RingProducer> producers = new CopyOnWriteArrayList<>();
    private Disruptor<PayloadSlot> disruptor;
    private RingBuffer<PayloadSlot> ring;
    private PayloadReader reader;

    /**
     * Starts the ring and its handler thread. One JMH worker thread, once per trial; allocates the
     * ring and its slots.
     */
    @Setup(Level.Trial)
    public void start()
    {
        disruptor = new Disruptor<>(PayloadSlot::new, RingWatchConfig.defaults().writeRingSize(),
            DaemonThreadFactory.INSTANCE, ProducerType.MULTI, waitStrategy.newStrategy());
        reader = new PayloadReader();
        disruptor.handleEventsWith(reader);
        ring = disruptor.start();
    }

    /**
     * Counts a producer in for the tear-down's check. Producer thread, in its set-up.
     *
     * @param producer the producer.
     * @return the ring to publish to.
     */
    RingBuffer<PayloadSlot> register(final RingProducer producer)
    {
        producers.add(producer);
        return ring;
    }

    /**
     * Waits for the handler to drain the ring, stops it, then checks it read every published payload.
     * One JMH worker thread, once per trial, after every producer has stopped publishing.
     *
     * @throws TimeoutException      if the handler does not drain in time.
     * @throws IllegalStateException if the handler missed a slot or read other bytes than were written.
     */
    @TearDown(Level.Trial)
    public void stop() throws TimeoutException
    {
        disruptor.shutdown(SHUTDOWN_SECONDS, TimeUnit.SECONDS);
        long published = 0;
        long expectedFold = 0;
        for (final RingProducer producer : producers)
        {
            published += producer.published();
            expectedFold += producer.expectedFold();
        }
        producers.clear();
        if (reader.handled() != published || reader.folded() != expectedFold)
        {
            throw new IllegalStateException("the handler read " + reader.handled() + " of " + published +
                " published slots, payload sum " + reader.folded() + " where " + expectedFold + " was written");
        }
    }
}
