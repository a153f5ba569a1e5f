package io.ringwatch.jmh.fanout;

import io.ringwatch.engine.config.RingWatchConfig;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * Fan-out end to end: how many writes per second, and so how many delivered events per second, reach
 * {@code watchers} push watchers that all match every write (they all watch the prefix every written key
 * has)? One producer writes asynchronously with a bounded number of writes in flight until delivered
 * ({@link InFlightGate}); the score is writes per second and the secondary result {@code deliveredEvents}
 * is events handed to listeners per second (about writes/s × {@code watchers}).
 * <ul>
 * <li>{@code ringWatch}: the engine with its default configuration but {@code threads} dispatcher and
 * {@code threads} delivery threads (default one each), {@code DirectWriter.putAsync}, counting listeners;</li>
 * <li>baseline {@code lockedQueues}: the locked j.u.c. store
 * ({@link io.ringwatch.baseline.LockedWatchStore}, linear-scan routing), a lock-guarded map whose put queues the
 * event on one {@code LinkedBlockingQueue} per watcher, drained by a pool of {@code 2 × threads} threads
 * (the engine's thread budget).</li>
 * </ul>
 * {@code -p threads=1,2,4,8} on a machine with cores to spare shows how delivery scales with threads; the
 * default of 1 keeps the build's smoke run short.
 * Each trial fails unless every watcher received exactly one event per write. Compare the ratios.
 * <p>
 * Run: {@code java <JVM flags> -jar jmh/target/benchmarks.jar fanout.FanOutBenchmark -f 1 -wi 2 -i 3 -w 1s -r 1s};
 * add {@code -prof gc} for bytes per write (all threads of the JVM). See jmh/README.md.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@Threads(1)
public class FanOutBenchmark
{
    /**
     * Writes the next key through the engine once the in-flight limit allows.
     *
     * @param state     the engine and its watchers.
     * @param delivered the delivered-events counter.
     * @return the deliveries counted before the write.
     */
    @Benchmark
    public long ringWatch(final EngineState state, final DeliveredEvents delivered)
    {
        final long tally = state.engine.put();
        delivered.observe(tally);
        return tally;
    }

    /**
     * Baseline: writes the next key into the lock-guarded store once the in-flight limit allows.
     *
     * @param state     the store and its watchers.
     * @param delivered the delivered-events counter.
     * @return the deliveries counted before the write.
     * @throws InterruptedException never in practice: the baseline's queues are unbounded.
     */
    @Benchmark
    public long lockedQueues(final LockedState state, final DeliveredEvents delivered) throws InterruptedException
    {
        final long tally = state.store.put();
        delivered.observe(tally);
        return tally;
    }

    /**
     * The engine with {@code watchers} matching watchers; started and checked once per trial on the JMH
     * worker thread.
     */
    @State(Scope.Thread)
    public static class EngineState
    {
        /** Watchers of the written prefix. */
        @Param({"1", "1000", "100000"})
        public int watchers;

        /** Dispatcher threads, and as many delivery threads. */
        @Param({"1"})
        public int threads;

        WatchedEngine engine;

        /**
         * Opens the engine and registers the watchers. JMH worker thread; allocates them.
         */
        @Setup(Level.Trial)
        public void start()
        {
            engine = new WatchedEngine(RingWatchConfig.builder().dispatcherThreads(threads).deliveryThreads(threads).build(),
                watchers, 0);
        }

        /**
         * Checks that every watcher received every write, then closes the engine (also when the check
         * fails). JMH worker thread.
         */
        @TearDown(Level.Trial)
        public void stop()
        {
            try
            {
                engine.verifyDelivered();
            }
            finally
            {
                engine.close();
            }
        }
    }

    /**
     * The baseline with {@code watchers} matching watchers; started and checked once per trial on the
     * JMH worker thread.
     */
    @State(Scope.Thread)
    public static class LockedState
    {
        /** Watchers of the written prefix. */
        @Param({"1", "1000", "100000"})
        public int watchers;

        /** Half the drain pool's threads: the same thread budget as the engine's {@code threads}. */
        @Param({"1"})
        public int threads;

        WatchedLockedStore store;

        /**
         * Builds the store and registers the watchers. JMH worker thread; allocates them.
         *
         * @throws InterruptedException never in practice: the baseline's queues are unbounded.
         */
        @Setup(Level.Trial)
        public void start() throws InterruptedException
        {
            store = new WatchedLockedStore(2 * threads, watchers, 0);
        }

        /**
         * Checks that every watcher received every write, then stops the store (also when the check
         * fails). JMH worker thread.
         */
        @TearDown(Level.Trial)
        public void stop()
        {
            try
            {
                store.verifyDelivered();
            }
            finally
            {
                store.close();
            }
        }
    }
}
