package io.ringwatch.perf.peer;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.errors.RingWatchException;
import io.ringwatch.engine.direct.DirectWriter;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.watch.EventBatch;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.WatchListener;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.perf.load.CancellationTally;
import io.ringwatch.perf.load.LatencyRecorder;
import io.ringwatch.perf.load.Peer;
import io.ringwatch.perf.load.PeerWriter;
import io.ringwatch.perf.load.ThreadLatency;
import io.ringwatch.perf.load.ValueCodec;
import io.ringwatch.perf.load.Workload;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.LongAdder;

/**
 * RingWatch, in this JVM, driven through its zero-allocation API: {@code DirectWriter} puts (async
 * with pre-allocated callbacks, or blocking) and push listeners on the engine's delivery threads
 * (or pull watchers drained by harness threads). Main-thread methods as {@link io.ringwatch.perf.load.Peer}
 * says; writers and listeners allocate nothing per write or event.
 */
public final class RingWatchPeer implements Peer
{
    private final EngineSettings settings;
    /** Writes in flight per async producer: as many as the engine's write ring holds. */
    private final int ackSlots;
    private final RingWatch engine;
    private final int blockedListeners;
    private final CountDownLatch releaseBlocked = new CountDownLatch(1);
    private final LongAdder failures = new LongAdder();
    private PullPollers pollers;

    /**
     * Starts an engine for the workload.
     *
     * @param settings the engine's strategies and threads.
     * @param workload the keys, to size the index and limits.
     * @throws IllegalArgumentException if persistence is asked for without a data directory.
     */
    public RingWatchPeer(final EngineSettings settings, final Workload workload)
    {
        this(settings, workload, 0);
    }

    /**
     * Starts an engine for the workload, with listeners that block for ever beside the
     * workload's watchers: the cost of a blocked listener to the others.
     *
     * @param settings         the engine's strategies and threads.
     * @param workload         the keys, to size the index and limits.
     * @param blockedListeners push watchers of every key whose listener blocks in its first
     *                         call until the peer closes; not counted in the results.
     * @throws IllegalArgumentException if persistence is asked for without a data directory, or
     *                                  {@code blockedListeners} is negative.
     */
    public RingWatchPeer(final EngineSettings settings, final Workload workload, final int blockedListeners)
    {
        if (blockedListeners < 0)
        {
            throw new IllegalArgumentException("blocked listeners must not be negative: " + blockedListeners);
        }
        this.settings = settings;
        this.blockedListeners = blockedListeners;
        final RingWatchConfig config = config(settings, workload);
        this.ackSlots = config.writeRingSize();
        this.engine = RingWatch.open(config);
    }

    /**
     * Builds the engine configuration a run uses; also how options are checked before any run.
     *
     * @param settings the engine's strategies and threads.
     * @param workload the keys.
     * @return the configuration.
     * @throws IllegalArgumentException if persistence is asked for without a data directory.
     * @throws io.ringwatch.engine.errors.InvalidRequestException for settings the engine refuses.
     */
    public static RingWatchConfig config(final EngineSettings settings, final Workload workload)
    {
        final RingWatchConfig.Builder builder = RingWatchConfig.builder()
            .writerWaitStrategy(settings.writerWait().factory())
            .dispatcherIdleStrategy(settings.dispatcherIdle().factory())
            .deliveryIdleStrategy(settings.deliveryIdle().factory())
            .dispatcherThreads(settings.dispatchers())
            .deliveryThreads(settings.deliveryThreads())
            .indexInitialCapacity(Math.max(16, workload.keyCount()))
            .maxKeyBytes(Math.max(1, workload.keySize()))
            .maxValueBytes(workload.valueSize());
        if (settings.writeRingSize() > 0)
        {
            builder.writeRingSize(settings.writeRingSize());
        }
        settings.persistence().applyTo(builder, settings.dataDir());
        return builder.build();
    }

    @Override
    public String name()
    {
        final String base = settings.persistence() == Persistence.NONE ? "ringwatch" :
            "ringwatch-" + settings.persistence().name().toLowerCase(Locale.ROOT);
        return blockedListeners == 0 ? base : base + "-" + blockedListeners + "-blocked";
    }

    @Override
    public String description()
    {
        return (settings.persistence() == Persistence.NONE ? "RingWatch in memory, " : "RingWatch over its revision log, ") + settings.describe() +
            (blockedListeners == 0 ? "" : ", plus " + blockedListeners + " listener(s) of every key blocked for ever in their first call");
    }

    @Override
    public void preload(final Workload workload)
    {
        final DirectWriter writer = engine.newDirectWriter();
        final UnsafeBuffer key = new UnsafeBuffer(new byte[workload.keySize()]);
        final UnsafeBuffer value = new UnsafeBuffer(new byte[workload.valueSize()]);
        for (int k = 0; k < workload.keyCount(); k++)
        {
            key.putBytes(0, workload.key(k));
            writer.put(key, 0, workload.keySize(), value, 0, workload.valueSize());
        }
    }

    @Override
    public void watch(
        final byte[] prefix, final boolean pull, final LatencyRecorder deliveries, final CancellationTally cancellations)
    {
        final WatchRequest request = WatchRequest.of(KeyRange.prefix(prefix));
        final LatencyListener listener = new LatencyListener(deliveries, cancellations);
        if (pull)
        {
            if (pollers == null)
            {
                pollers = new PullPollers(settings.pollers(), listener, settings.deliveryIdle().factory());
            }
            final PullWatcher watcher = engine.watchPull(request);
            pollers.add(watcher, (int)watcher.id());
        }
        else
        {
            engine.watch(request, listener);
        }
    }

    @Override
    public void ready()
    {
        for (int i = 0; i < blockedListeners; i++)
        {
            engine.watch(WatchRequest.of(KeyRange.all()), new BlockedListener(releaseBlocked));
        }
        if (pollers != null)
        {
            pollers.start();
        }
    }

    @Override
    public PeerWriter newWriter(final Workload workload, final LatencyRecorder acks)
    {
        return settings.writeMode() == WriteMode.ASYNC ?
            new AsyncWriter(engine.newDirectWriter(), workload, acks, failures, ackSlots) :
            new SyncWriter(engine.newDirectWriter(), workload, acks, failures);
    }

    @Override
    public long failedWrites()
    {
        return failures.sum();
    }

    @Override
    public void close()
    {
        if (pollers != null)
        {
            pollers.stop();
        }
        releaseBlocked.countDown();
        engine.close();
    }

    /** Blocks in its first call until the peer closes: a listener stuck for good. A delivery thread. */
    private static final class BlockedListener implements WatchListener
    {
        private final CountDownLatch release;

        BlockedListener(final CountDownLatch release)
        {
            this.release = release;
        }

        @Override
        public void onEvents(final EventBatch events)
        {
            try
            {
                release.await();
            }
            catch (final InterruptedException e)
            {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Every key laid end to end in one buffer: key {@code k} at {@code k * keySize}. */
    private static UnsafeBuffer keyBlock(final Workload workload)
    {
        final UnsafeBuffer block = new UnsafeBuffer(new byte[workload.keyCount() * workload.keySize()]);
        for (int k = 0; k < workload.keyCount(); k++)
        {
            block.putBytes(k * workload.keySize(), workload.key(k));
        }
        return block;
    }

    /** Asynchronous puts; a slot per write in flight, reused once acknowledged. */
    private static final class AsyncWriter implements PeerWriter
    {
        private final DirectWriter writer;
        private final UnsafeBuffer keys;
        private final int keySize;
        private final UnsafeBuffer value;
        private final AckSlot[] slots;
        private final int mask;
        private long sequence;

        /** {@code ackSlots}: writes in flight at most, a power of two (the engine's ring size). */
        AsyncWriter(
            final DirectWriter writer, final Workload workload, final LatencyRecorder acks, final LongAdder failures,
            final int ackSlots)
        {
            this.slots = new AckSlot[ackSlots];
            this.mask = ackSlots - 1;
            this.writer = writer;
            this.keys = keyBlock(workload);
            this.keySize = workload.keySize();
            this.value = new UnsafeBuffer(new byte[workload.valueSize()]);
            for (int i = 0; i < slots.length; i++)
            {
                slots[i] = new AckSlot(acks, failures);
            }
        }

        @Override
        public void write(final int keyIndex, final long intendedNanos)
        {
            final AckSlot slot = slots[(int)(sequence++ & mask)];
            while (slot.isInFlight())
            {
                // Back-pressure: this slot's earlier write is not acknowledged yet. The wait counts
                // as latency of the writes behind it, since latency runs from intended times.
                Thread.onSpinWait();
            }
            slot.arm(intendedNanos);
            ValueCodec.writeIntended(value, intendedNanos);
            writer.putAsync(keys, keyIndex * keySize, keySize, value, 0, value.capacity(), slot);
        }
    }

    /** Blocking puts: the acknowledgement is the return. */
    private static final class SyncWriter implements PeerWriter
    {
        private final DirectWriter writer;
        private final UnsafeBuffer keys;
        private final int keySize;
        private final UnsafeBuffer value;
        private final ThreadLatency acks;
        private final LongAdder failures;

        SyncWriter(final DirectWriter writer, final Workload workload, final LatencyRecorder acks, final LongAdder failures)
        {
            this.writer = writer;
            this.keys = keyBlock(workload);
            this.keySize = workload.keySize();
            this.value = new UnsafeBuffer(new byte[workload.valueSize()]);
            this.acks = acks.forCurrentThread();
            this.failures = failures;
        }

        @Override
        public void write(final int keyIndex, final long intendedNanos)
        {
            ValueCodec.writeIntended(value, intendedNanos);
            try
            {
                writer.put(keys, keyIndex * keySize, keySize, value, 0, value.capacity());
            }
            catch (final RingWatchException e)
            {
                failures.increment();
            }
            acks.record(intendedNanos, System.nanoTime());
        }
    }
}
