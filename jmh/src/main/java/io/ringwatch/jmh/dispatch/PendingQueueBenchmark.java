package io.ringwatch.jmh.dispatch;

import io.ringwatch.engine.internal.dispatch.PendingQueue;
import org.agrona.concurrent.OneToOneConcurrentArrayQueue;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Throughput of a watcher's pending queue on one thread: {@link PendingQueue} (primitive longs, SPSC,
 * lock-free) against two baselines in the same run, {@link ArrayBlockingQueue} of {@code Long} (the JDK's
 * bounded queue, one lock) and Agrona's {@link OneToOneConcurrentArrayQueue} of {@code Long} (a lock-free
 * SPSC queue of references).
 * <p>
 * Two shapes: one offer then one poll (a watcher that keeps up), and a burst of {@value #BURST} offers then
 * {@value #BURST} polls (a watcher that fell a little behind). Scores are offer+poll pairs per microsecond.
 * All queues hold {@value #CAPACITY} values and never grow during the run. The reference queues are given
 * values boxed in advance, so the measured loop allocates nothing in any queue: the figures compare the
 * queues, not boxing (which a real {@code Long} queue would add on top).
 * <p>
 * Run: {@code java <JVM flags> -jar jmh/target/benchmarks.jar PendingQueueBenchmark} (see jmh/README.md).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class PendingQueueBenchmark
{
    static final int BURST = 32;
    static final int CAPACITY = 1024;
    private static final int VALUE_MASK = CAPACITY - 1;

    private final long[] values = new long[CAPACITY];
    private final Long[] boxedValues = new Long[CAPACITY];
    private PendingQueue pendingQueue;
    private ArrayBlockingQueue<Long> arrayBlockingQueue;
    private OneToOneConcurrentArrayQueue<Long> agronaQueue;
    private int next;

    /**
     * Creates the queues at their full capacity and the values to offer. JMH thread, once per trial;
     * allocates the queues and the boxed values.
     */
    @Setup(Level.Trial)
    public void setUp()
    {
        for (int i = 0; i < CAPACITY; i++)
        {
            values[i] = 1_000_000L + i; // outside Long's small-value cache, like real window sequences
            boxedValues[i] = values[i];
        }
        pendingQueue = new PendingQueue(CAPACITY, CAPACITY);
        arrayBlockingQueue = new ArrayBlockingQueue<>(CAPACITY);
        agronaQueue = new OneToOneConcurrentArrayQueue<>(CAPACITY);
    }

    /**
     * One offer then one poll on {@link PendingQueue}.
     *
     * @return the polled value.
     */
    @Benchmark
    public long pendingQueueOfferPoll()
    {
        pendingQueue.offer(values[next++ & VALUE_MASK]);
        return pendingQueue.poll();
    }

    /**
     * Baseline: one offer then one poll on {@link ArrayBlockingQueue}.
     *
     * @return the polled value.
     */
    @Benchmark
    public Long arrayBlockingQueueOfferPoll()
    {
        arrayBlockingQueue.offer(boxedValues[next++ & VALUE_MASK]);
        return arrayBlockingQueue.poll();
    }

    /**
     * Baseline: one offer then one poll on Agrona's {@link OneToOneConcurrentArrayQueue}.
     *
     * @return the polled value.
     */
    @Benchmark
    public Long agronaQueueOfferPoll()
    {
        agronaQueue.offer(boxedValues[next++ & VALUE_MASK]);
        return agronaQueue.poll();
    }

    /**
     * {@value #BURST} offers then {@value #BURST} polls on {@link PendingQueue}.
     *
     * @param blackhole sink for the polled values.
     */
    @Benchmark
    @OperationsPerInvocation(BURST)
    public void pendingQueueBurst(final Blackhole blackhole)
    {
        for (int i = 0; i < BURST; i++)
        {
            pendingQueue.offer(values[next++ & VALUE_MASK]);
        }
        for (int i = 0; i < BURST; i++)
        {
            blackhole.consume(pendingQueue.poll());
        }
    }

    /**
     * Baseline: {@value #BURST} offers then {@value #BURST} polls on {@link ArrayBlockingQueue}.
     *
     * @param blackhole sink for the polled values.
     */
    @Benchmark
    @OperationsPerInvocation(BURST)
    public void arrayBlockingQueueBurst(final Blackhole blackhole)
    {
        for (int i = 0; i < BURST; i++)
        {
            arrayBlockingQueue.offer(boxedValues[next++ & VALUE_MASK]);
        }
        for (int i = 0; i < BURST; i++)
        {
            blackhole.consume(arrayBlockingQueue.poll());
        }
    }

    /**
     * Baseline: {@value #BURST} offers then {@value #BURST} polls on Agrona's
     * {@link OneToOneConcurrentArrayQueue}.
     *
     * @param blackhole sink for the polled values.
     */
    @Benchmark
    @OperationsPerInvocation(BURST)
    public void agronaQueueBurst(final Blackhole blackhole)
    {
        for (int i = 0; i < BURST; i++)
        {
            agronaQueue.offer(boxedValues[next++ & VALUE_MASK]);
        }
        for (int i = 0; i < BURST; i++)
        {
            blackhole.consume(agronaQueue.poll());
        }
    }
}
