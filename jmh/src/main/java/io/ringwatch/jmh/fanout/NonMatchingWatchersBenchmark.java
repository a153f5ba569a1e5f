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
 * Routing, not scanning: the cost of one write, delivered end to end to the ONE watcher that matches it,
 * while {@code nonMatchingWatchers} other watchers (0, 1000, 100000) watch single keys that are never
 * written. One producer writes asynchronously with a bounded number of writes in flight until delivered
 * ({@link InFlightGate}); the score is nanoseconds per write.
 * <ul>
 * <li>{@code ringWatch}: the engine with its default configuration; its dispatcher finds the matches
 * through a hash map of exact keys and an interval tree of ranges, so the score should stay flat;</li>
 * <li>baseline {@code linearScan}: the locked j.u.c. store
 * ({@link io.ringwatch.baseline.LockedWatchStore}, linear-scan routing), whose put tests every watcher against the
 * key under its lock, so the score should grow linearly with the watchers.</li>
 * </ul>
 * Each trial fails unless the matching watcher received every write and no other watcher received any.
 * <p>
 * Run: {@code java <JVM flags> -jar jmh/target/benchmarks.jar fanout.NonMatchingWatchersBenchmark -f 1 -wi 2 -i 3 -w 1s -r 1s}.
 * See jmh/README.md.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@Threads(1)
public class NonMatchingWatchersBenchmark
{
    /**
     * Writes the next key through the engine once the in-flight limit allows.
     *
     * @param state the engine and its watchers.
     * @return the deliveries counted before the write.
     */
    @Benchmark
    public long ringWatch(final EngineState state)
    {
        return state.engine.put();
    }

    /**
     * Baseline: writes the next key into the linear-scan store once the in-flight limit allows.
     *
     * @param state the store and its watchers.
     * @return the deliveries counted before the write.
     * @throws InterruptedException never in practice: the baseline's queues are unbounded.
     */
    @Benchmark
    public long linearScan(final LockedState state) throws InterruptedException
    {
        return state.store.put();
    }

    /**
     * The engine with one matching and {@code nonMatchingWatchers} other watchers; started and checked
     * once per trial on the JMH worker thread.
     */
    @State(Scope.Thread)
    public static class EngineState
    {
        /** Watchers of keys that are never written. */
        @Param({"0", "1000", "100000"})
        public int nonMatchingWatchers;

        WatchedEngine engine;

        /**
         * Opens the engine and registers the watchers. JMH worker thread; allocates them.
         */
        @Setup(Level.Trial)
        public void start()
        {
            engine = new WatchedEngine(RingWatchConfig.defaults(), 1, nonMatchingWatchers);
        }

        /**
         * Checks the deliveries, then closes the engine (also when the check fails). JMH worker thread.
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
     * The baseline with one matching and {@code nonMatchingWatchers} other watchers; started and checked
     * once per trial on the JMH worker thread.
     */
    @State(Scope.Thread)
    public static class LockedState
    {
        /** Watchers of keys that are never written. */
        @Param({"0", "1000", "100000"})
        public int nonMatchingWatchers;

        WatchedLockedStore store;

        /**
         * Builds the store and registers the watchers. JMH worker thread; allocates them.
         *
         * @throws InterruptedException never in practice: the baseline's queues are unbounded.
         */
        @Setup(Level.Trial)
        public void start() throws InterruptedException
        {
            store = new WatchedLockedStore(WatchedLockedStore.DEFAULT_POOL_THREADS, 1, nonMatchingWatchers);
        }

        /**
         * Checks the deliveries, then stops the store (also when the check fails). JMH worker thread.
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
