package io.ringwatch.jmh.engine;

import io.ringwatch.jmh.persistence.RawChronicleState;
import io.ringwatch.jmh.persistence.RawLogState;
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
 * Write throughput from 1, 2 and 4 producer threads into one shared store, RingWatch against its
 * baselines in the same run, in memory or with a revision log ({@code storage}). Every producer
 * writes the same {@value WriteKeys#KEY_BYTES}-byte keys, cycling through a fixed set of
 * {@value WriteKeys#KEY_COUNT} keys (all written before the measurement, so measured puts are
 * updates) in a shuffled order, each with the same {@value WriteKeys#VALUE_BYTES}-byte value.
 * <ul>
 * <li>{@code ringWatch}, {@code ringWatch2Producers}, {@code ringWatch4Producers}: one engine with the
 * default configuration ({@link WriteEngineState}), {@code storage} {@code MEMORY}, {@code ASYNC} or
 * {@code SYNC} (a revision log in a fresh directory per trial, snapshots off); each producer calls
 * {@code DirectWriter.putAsync} with one pre-allocated callback ({@link WriteProducer}) and either
 * waits, every {@value AckWindow#WINDOW} puts, until all of them were received by the watcher
 * ({@code pacing=DRAIN}), or keeps at most {@code window} puts (default 512) not yet received and waits
 * for the oldest one as soon as the window is full ({@code pacing=SLIDING}, which keeps the producer
 * busy). One push watcher on all keys ({@code watched=true}) counts the events, so the dispatcher
 * and delivery threads work during the measurement; the trial fails unless it received exactly every
 * revision written after it started, and no put failed;</li>
 * <li>baseline {@code disruptor}, {@code disruptor2Producers}, {@code disruptor4Producers}: a bare
 * Disruptor ring shaped like the engine's write ring (multi-producer, the engine's default size)
 * carrying the same payload to one handler that only reads it ({@link SharedRingState}); producers
 * claim, copy and publish and wait only while the ring is full ({@link RingProducer}). The limit of
 * the sequencing stage: the gap to it is what the engine's writer, index, window and watch path cost.
 * {@code waitStrategy} is the handler's wait: {@code WAKEABLE}, the engine's default writer wait
 * strategy, or {@code BUSY_SPIN} (a whole core: the hardware's limit);</li>
 * <li>baseline {@code lockedQueues}, {@code lockedQueues2Producers}, {@code lockedQueues4Producers}:
 * the plain java.util.concurrent design in the shape of the Kubernetes watch Broadcaster (the
 * {@code baseline} module's {@code LockedWatchStore}, the store the load harness measures too), a
 * lock-guarded {@code HashMap} and revision counter whose put queues an event on one
 * {@code LinkedBlockingQueue} per watcher ({@link SharedLockedStoreState}: one watcher, drained by
 * its own thread), producers calling put concurrently ({@link LockedStoreProducer}); the trial fails
 * unless the watcher drained every put;</li>
 * <li>baseline {@code rawLog} ({@code durability} ASYNC or SYNC): the persistence module's
 * {@code RevisionLog} alone on the benchmark thread, beginRevision/appendChange/endRevision of exactly
 * the excerpt the engine writes ({@link RawLogState}): the engine's overhead over its own log;</li>
 * <li>baseline {@code rawChronicle} ({@code durability} ASYNC or SYNC): Chronicle Queue
 * {@code appender.writeBytes} of that excerpt's bytes as a fixed blob, synced every
 * {@value AckWindow#WINDOW} appends for SYNC ({@link RawChronicleState}): the queue through its plain
 * byte API.</li>
 * </ul>
 * Scores are puts per second, summed over the producers. Each contender's producers wait as its design
 * makes them: a RingWatch producer for its window, a ring producer only for a free slot, a
 * locked-store producer for the lock, and for room in the watcher's bounded queue when the watcher
 * falls behind. Compare the ratios at the same producer count: this runs on a shared machine, and 4
 * producers on 2 cores show how each design copes with more producers than cores, not how it scales.
 * Log data lives under {@code jmh/target/persistence-data/} in a fresh directory per trial (the raw
 * baselines: per iteration), deleted after it.
 * <p>
 * Run: {@code java <JVM flags> -jar jmh/target/benchmarks.jar WriteBenchmark -f 1 -wi 2 -i 3 -w 1s -r 1s};
 * {@code -p storage=MEMORY -p pacing=SLIDING} for one configuration; add {@code -prof gc} for bytes per
 * put (the figure counts every thread of the JVM, the engine's writer, dispatcher and delivery
 * threads included, divided by the puts). See jmh/README.md.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@Threads(1)
public class WriteBenchmark
{
    /**
     * One producer sends the next put to the shared engine without waiting for it.
     *
     * @param producer this thread's writer, keys and window.
     */
    @Benchmark
    public void ringWatch(final WriteProducer producer)
    {
        producer.put();
    }

    /**
     * Two producers send puts to the shared engine.
     *
     * @param producer this thread's writer, keys and window.
     */
    @Benchmark
    @Threads(2)
    public void ringWatch2Producers(final WriteProducer producer)
    {
        producer.put();
    }

    /**
     * Four producers send puts to the shared engine.
     *
     * @param producer this thread's writer, keys and window.
     */
    @Benchmark
    @Threads(4)
    public void ringWatch4Producers(final WriteProducer producer)
    {
        producer.put();
    }

    /**
     * Baseline: one producer publishes the next put to the bare ring.
     *
     * @param producer this thread's keys and ring.
     * @return the slot's sequence.
     */
    @Benchmark
    public long disruptor(final RingProducer producer)
    {
        return producer.publish();
    }

    /**
     * Baseline: two producers publish to the bare ring.
     *
     * @param producer this thread's keys and ring.
     * @return the slot's sequence.
     */
    @Benchmark
    @Threads(2)
    public long disruptor2Producers(final RingProducer producer)
    {
        return producer.publish();
    }

    /**
     * Baseline: four producers publish to the bare ring.
     *
     * @param producer this thread's keys and ring.
     * @return the slot's sequence.
     */
    @Benchmark
    @Threads(4)
    public long disruptor4Producers(final RingProducer producer)
    {
        return producer.publish();
    }

    /**
     * Baseline: one producer puts the next key into the locked store.
     *
     * @param producer this thread's keys and store.
     * @return the put's revision.
     * @throws InterruptedException if interrupted while the watcher's queue is full.
     */
    @Benchmark
    public long lockedQueues(final LockedStoreProducer producer) throws InterruptedException
    {
        return producer.put();
    }

    /**
     * Baseline: two producers put into the locked store.
     *
     * @param producer this thread's keys and store.
     * @return the put's revision.
     * @throws InterruptedException if interrupted while the watcher's queue is full.
     */
    @Benchmark
    @Threads(2)
    public long lockedQueues2Producers(final LockedStoreProducer producer) throws InterruptedException
    {
        return producer.put();
    }

    /**
     * Baseline: four producers put into the locked store.
     *
     * @param producer this thread's keys and store.
     * @return the put's revision.
     * @throws InterruptedException if interrupted while the watcher's queue is full.
     */
    @Benchmark
    @Threads(4)
    public long lockedQueues4Producers(final LockedStoreProducer producer) throws InterruptedException
    {
        return producer.put();
    }

    /**
     * Baseline: appends the next put's revision to a bare revision log.
     *
     * @param log the log and the key state.
     * @return the revision appended.
     */
    @Benchmark
    public long rawLog(final RawLogState log)
    {
        return log.append();
    }

    /**
     * Baseline: appends the same excerpt bytes to a bare Chronicle Queue.
     *
     * @param queue the queue and the blob.
     * @return how many excerpts were appended.
     */
    @Benchmark
    public long rawChronicle(final RawChronicleState queue)
    {
        return queue.append();
    }
}
