package io.ringwatch.jmh.engine;

import io.ringwatch.engine.direct.DirectWriter;
import io.ringwatch.engine.kv.WriteResult;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * Blocking put throughput from one producer thread: RingWatch against two baselines in the same run.
 * Every contender writes the same {@value WriteKeys#KEY_BYTES}-byte keys, cycling through a fixed set
 * of {@value WriteKeys#KEY_COUNT} already written keys in a shuffled order, each with the same
 * {@value WriteKeys#VALUE_BYTES}-byte value, and returns only once its write is applied.
 * <ul>
 * <li>{@code directWriterPut}: {@link DirectWriter#put}, the zero-allocation API;</li>
 * <li>{@code convenientPut}: {@code RingWatch.put(byte[], byte[])}, which allocates its result;</li>
 * <li>baseline {@code lockedMapPut}: {@link LockedBroadcastStore}, a lock-guarded {@code HashMap}
 * plus revision counter plus one {@code LinkedBlockingQueue} per watcher drained by a thread, the
 * Kubernetes Broadcaster shape a team would otherwise write;</li>
 * <li>baseline {@code disruptorOnly}: a bare Disruptor ring carrying the same payload to a handler
 * that does nothing, the producer waiting for its own slot to be handled as the engine's put does
 * ({@code waitStrategy} {@code WAKEABLE}, the engine's default writer wait strategy, {@code BLOCKING},
 * the Disruptor's default, and {@code BUSY_SPIN}); the ceiling for any engine built on this ring.</li>
 * </ul>
 * Both engine benchmarks run the default configuration with one push watcher on all keys whose
 * listener counts, so the dispatcher and delivery threads work during the measurement; each trial
 * fails if that watcher missed an event. Scores are puts per second; compare the ratios, since this
 * runs on a shared machine.
 * <p>
 * Run: {@code java <JVM flags> -jar jmh/target/benchmarks.jar WritePathBenchmark -f 1 -wi 2 -i 3 -w 1s -r 1s};
 * add {@code -prof gc} for bytes per put (the figure counts every thread of the JVM, the engine's
 * writer, dispatcher and delivery threads included). See jmh/README.md.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@Threads(1)
public class WritePathBenchmark
{
    /**
     * Puts the next key through the engine's flyweight writer and waits for it.
     *
     * @param state the engine and the key cursor.
     * @return the put's revision.
     */
    @Benchmark
    public long directWriterPut(final EngineState state)
    {
        final WriteKeys keys = state.keys;
        final int position = keys.next();
        return state.writer.put(keys.keyBuffer(), WriteKeys.keyOffset(position), WriteKeys.KEY_BYTES,
            keys.valueBuffer(), 0, WriteKeys.VALUE_BYTES);
    }

    /**
     * Puts the next key through the engine's {@code byte[]} API and waits for it.
     *
     * @param state the engine and the key cursor.
     * @return the put's result.
     */
    @Benchmark
    public WriteResult convenientPut(final EngineState state)
    {
        final WriteKeys keys = state.keys;
        return state.engine.put(keys.key(keys.next()), keys.value());
    }

    /**
     * Baseline: puts the next key into the lock-guarded map and queues its event for the watcher.
     *
     * @param state the store and the key cursor.
     * @return the put's revision.
     * @throws InterruptedException if interrupted while the watcher's queue is full.
     */
    @Benchmark
    public long lockedMapPut(final LockedMapState state) throws InterruptedException
    {
        final WriteKeys keys = state.keys;
        return state.store.put(keys.key(keys.next()), keys.value());
    }

    /**
     * Baseline: carries the next key and the value through a bare Disruptor ring and waits until the
     * handler has seen the slot.
     *
     * @param state the ring and the key cursor.
     * @return the slot's sequence.
     */
    @Benchmark
    public long disruptorOnly(final DisruptorState state)
    {
        final WriteKeys keys = state.keys;
        final int position = keys.next();
        final Rendezvous rendezvous = state.rendezvous;
        rendezvous.arm();
        final long sequence = state.ring.next();
        try
        {
            state.ring.get(sequence).fill(keys.keyBuffer(), WriteKeys.keyOffset(position), WriteKeys.KEY_BYTES,
                keys.valueBuffer(), 0, WriteKeys.VALUE_BYTES, rendezvous);
        }
        finally
        {
            state.ring.publish(sequence);
        }
        rendezvous.await();
        return sequence;
    }
}
