package io.ringwatch.perf.peer;

import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.dsl.Disruptor;
import com.lmax.disruptor.dsl.ProducerType;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.perf.load.CancellationTally;
import io.ringwatch.perf.load.LatencyRecorder;
import io.ringwatch.perf.load.Peer;
import io.ringwatch.perf.load.PeerWriter;
import io.ringwatch.perf.load.Workload;

/**
 * The floor: a bare Disruptor ring under the same load as RingWatch, so a report can tell what the
 * machine, the JVM and one thread hand-over cost from what RingWatch adds. The ring is
 * {@link ProducerType#MULTI} with as many slots as RingWatch's write ring and the same
 * {@code --writer-wait} strategy; each producer claims a slot, writes the key index and intended
 * time into it and publishes; ONE handler thread ({@link FloorHandler}) records the acknowledgement
 * and each matching watcher's write-to-listener latency. No index, no watch window, no dispatcher
 * or delivery threads, no key or value bytes: every write still reaches exactly {@code fanout}
 * watchers, as for the other peers. It is a reference, not a bound RingWatch cannot beat: on a
 * noisy machine either may be lower at some percentile in one run.
 *
 * <p>Main-thread methods as {@link Peer} says; the ring starts in {@link #ready()}, once every
 * watcher is known. Push watchers only. Writers and the handler allocate nothing per write.
 */
public final class DisruptorFloorPeer implements Peer
{
    private final WriterWait wait;
    private final Workload workload;
    private final int ringSize = RingWatchConfig.defaults().writeRingSize();
    private final WatcherRoutes routes = new WatcherRoutes();
    private final Disruptor<FloorEvent> disruptor;
    private Thread handlerThread;

    /**
     * Builds the ring; no thread starts until {@link #ready()}.
     *
     * @param wait     the handler's wait strategy, as {@code --writer-wait} gives RingWatch's writer.
     * @param workload the keys, for the route table.
     */
    public DisruptorFloorPeer(final WriterWait wait, final Workload workload)
    {
        this.wait = wait;
        this.workload = workload;
        this.disruptor = new Disruptor<>(FloorEvent::new, ringSize, runnable ->
        {
            final Thread thread = new Thread(runnable, "disruptor-floor-handler");
            thread.setDaemon(true);
            handlerThread = thread;
            return thread;
        }, ProducerType.MULTI, wait.factory().get());
    }

    @Override
    public String name()
    {
        return "disruptor";
    }

    @Override
    public String description()
    {
        return "bare Disruptor ring (MULTI, " + ringSize + " slots, " + wait.optionName() + "): one handler thread " +
            "records the ack and, through a key-to-watchers table built from the prefixes, each matching watcher's " +
            "latency; no index, window, dispatcher or delivery threads";
    }

    /**
     * Nothing to do: the floor stores no values, so there is nothing to write ahead of the run.
     *
     * @param workload the keys.
     */
    @Override
    public void preload(final Workload workload)
    {
    }

    /**
     * Adds a push watcher to the route table. Call before {@link #ready()}.
     *
     * @throws IllegalArgumentException for a pull watcher: the floor has none.
     * @throws IllegalStateException    once the ring has started.
     */
    @Override
    public void watch(
        final byte[] prefix, final boolean pull, final LatencyRecorder deliveries, final CancellationTally cancellations)
    {
        if (pull)
        {
            throw new IllegalArgumentException("the Disruptor floor has no pull watchers");
        }
        requireStarted(false);
        routes.add(prefix, deliveries);
    }

    /**
     * Builds the route table from the watchers added so far and starts the handler thread, which
     * the thread start hands the table to.
     */
    @Override
    public void ready()
    {
        requireStarted(false);
        disruptor.handleEventsWith(new FloorHandler(routes.byKey(workload)));
        disruptor.start();
    }

    /**
     * @throws IllegalStateException before {@link #ready()}: nothing would consume the writes.
     */
    @Override
    public PeerWriter newWriter(final Workload workload, final LatencyRecorder acks)
    {
        requireStarted(true);
        return new FloorWriter(disruptor.getRingBuffer(), acks);
    }

    /**
     * @return 0: a publish cannot fail.
     */
    @Override
    public long failedWrites()
    {
        return 0;
    }

    /**
     * Halts the handler, dropping anything still in the ring (the run has been measured by now),
     * and waits for its thread to end.
     */
    @Override
    public void close()
    {
        if (!disruptor.hasStarted())
        {
            return;
        }
        disruptor.halt();
        try
        {
            handlerThread.join();
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
    }

    private void requireStarted(final boolean started)
    {
        if (disruptor.hasStarted() != started)
        {
            throw new IllegalStateException(started ? "call ready() before making writers" : "the ring has already started");
        }
    }

    /** One producer's writes: claim a slot, fill it, publish. */
    private static final class FloorWriter implements PeerWriter
    {
        private final RingBuffer<FloorEvent> ring;
        private final LatencyRecorder acks;

        FloorWriter(final RingBuffer<FloorEvent> ring, final LatencyRecorder acks)
        {
            this.ring = ring;
            this.acks = acks;
        }

        @Override
        public void write(final int keyIndex, final long intendedNanos)
        {
            // A full ring makes next() wait: back-pressure that counts as latency of the writes
            // behind it, since latency runs from intended times.
            final long sequence = ring.next();
            final FloorEvent event = ring.get(sequence);
            event.keyIndex = keyIndex;
            event.intendedNanos = intendedNanos;
            event.acks = acks;
            ring.publish(sequence);
        }
    }
}
