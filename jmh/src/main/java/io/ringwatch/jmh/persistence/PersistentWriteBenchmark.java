package io.ringwatch.jmh.persistence;

import io.ringwatch.jmh.engine.AckWindow;
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
 * What persistence costs the write path: puts per second into a RingWatch engine whose every
 * revision goes to its Chronicle Queue revision log, against appending the same excerpts without the
 * engine, in the same run. Every contender writes updates of {@value LogWorkload#KEY_BYTES}-byte keys
 * from a fixed set of {@value LogWorkload#KEY_COUNT} with a {@value LogWorkload#VALUE_BYTES}-byte
 * value, so each revision is one excerpt of the same size; {@code durability} is ASYNC or SYNC for
 * all of them.
 * <ul>
 * <li>{@code ringWatch}, {@code ringWatch2Producers}, {@code ringWatch4Producers}: asynchronous
 * {@code DirectWriter.putAsync} with a pre-allocated callback from 1, 2 or 4 producer threads, each
 * with at most {@value AckWindow#WINDOW} puts in flight ({@link PersistentEngineState}; snapshots
 * off, no watcher). Scores count every put sent, all producers together;</li>
 * <li>baseline {@code rawLog}: the persistence module's {@code RevisionLog} alone on the benchmark
 * thread, beginRevision/appendChange/endRevision of exactly the excerpt the engine writes
 * ({@link RawLogState}): the engine's overhead over its own log;</li>
 * <li>baseline {@code rawChronicle}: Chronicle Queue {@code appender.writeBytes} of that excerpt's
 * bytes as a fixed blob ({@link RawChronicleState}): the queue through its plain byte API.</li>
 * </ul>
 * Data lives under {@code jmh/target/persistence-data/} in a fresh directory per iteration, deleted
 * after it (each iteration's log is at most a few hundred MB). Compare the ratios: this runs on a
 * shared machine.
 * <p>
 * Run: {@code java <JVM flags> -jar jmh/target/benchmarks.jar PersistentWriteBenchmark -f 1 -wi 2 -i 3 -w 1s -r 1s};
 * see jmh/README.md.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@Threads(1)
public class PersistentWriteBenchmark
{
    /**
     * One producer sends the next put to the persistent engine without waiting for it.
     *
     * @param producer this thread's writer, keys and window.
     */
    @Benchmark
    public void ringWatch(final EngineProducer producer)
    {
        producer.put();
    }

    /**
     * Two producers send puts to the same persistent engine.
     *
     * @param producer this thread's writer, keys and window.
     */
    @Benchmark
    @Threads(2)
    public void ringWatch2Producers(final EngineProducer producer)
    {
        producer.put();
    }

    /**
     * Four producers send puts to the same persistent engine.
     *
     * @param producer this thread's writer, keys and window.
     */
    @Benchmark
    @Threads(4)
    public void ringWatch4Producers(final EngineProducer producer)
    {
        producer.put();
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
