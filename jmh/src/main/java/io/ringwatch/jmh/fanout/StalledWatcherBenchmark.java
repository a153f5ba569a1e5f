package io.ringwatch.jmh.fanout;

import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.engine.watch.Watcher;
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

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * What a stuck watcher costs everyone else: writes per second delivered end to end to one healthy push
 * watcher of every written key, with {@code extra} = {@code NONE} (the baseline), {@code STALLED_PUSH} (a
 * second watcher of the same keys whose listener blocks on a latch for the whole trial) or
 * {@code UNPOLLED_PULL} (a second, pull watcher of the same keys that is never polled). Target: the stalled
 * variants within 5% of {@code NONE}; read the ratio.
 * <p>
 * So that the stuck watcher stays registered, and keeps costing whatever it costs, for the whole trial,
 * every variant runs the engine with a slow-listener timeout longer than any trial (the housekeeper would
 * otherwise cancel the stalled listener after 5 s), a pending limit of 2^24 events per watcher (the default
 * 65536 would cancel it as overflowed within a fraction of a second) and two delivery threads: with the
 * default one, the stalled listener would hold the only delivery thread and starve the healthy watcher
 * until the slow-listener timeout. Watchers are spread over delivery threads by watch id, so the healthy
 * watcher (id 1) and the stalled one (id 2) get different threads; each trial fails if the healthy watcher
 * missed an event or the extra watcher was cancelled before the end.
 * <p>
 * Run: {@code java <JVM flags> -jar jmh/target/benchmarks.jar fanout.StalledWatcherBenchmark -f 1 -wi 2 -i 3 -w 1s -r 1s}.
 * See jmh/README.md.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@Threads(1)
public class StalledWatcherBenchmark
{
    /**
     * Writes the next key through the engine once the healthy watcher's in-flight limit allows.
     *
     * @param state the engine and its watchers.
     * @return the deliveries to the healthy watcher counted before the write.
     */
    @Benchmark
    public long ringWatch(final EngineState state)
    {
        return state.engine.put();
    }

    /** The watcher added beside the healthy one. */
    public enum Extra
    {
        /** None: the baseline. */
        NONE,
        /** A push watcher whose listener blocks for the whole trial. */
        STALLED_PUSH,
        /** A pull watcher nobody polls. */
        UNPOLLED_PULL
    }

    /**
     * The engine with the healthy watcher and the {@code extra} one; started and checked once per trial on
     * the JMH worker thread.
     */
    @State(Scope.Thread)
    public static class EngineState
    {
        private static final Duration NEVER_DURING_A_TRIAL = Duration.ofHours(1);
        private static final int PENDING_LIMIT = 1 << 24;
        private static final int DELIVERY_THREADS = 2;

        /** The watcher added beside the healthy one. */
        @Param
        public Extra extra;

        WatchedEngine engine;
        private StalledListener stalledListener;
        private Watcher extraWatcher;

        /**
         * Opens the engine, registers the healthy watcher, then the extra one. JMH worker thread; allocates
         * them.
         */
        @Setup(Level.Trial)
        public void start()
        {
            final RingWatchConfig config = RingWatchConfig.builder()
                .slowListenerTimeout(NEVER_DURING_A_TRIAL)
                .watcherQueueDepth(PENDING_LIMIT)
                .deliveryThreads(DELIVERY_THREADS)
                .build();
            engine = new WatchedEngine(config, 1, 0);
            final WatchRequest written = WatchRequest.of(KeyRange.prefix(FanOutWorkload.writtenPrefix()));
            switch (extra)
            {
                case STALLED_PUSH:
                    stalledListener = new StalledListener();
                    extraWatcher = engine.engine().watch(written, stalledListener);
                    engine.awaitWatchers(2);
                    break;
                case UNPOLLED_PULL:
                    extraWatcher = engine.engine().watchPull(written);
                    engine.awaitWatchers(2);
                    break;
                default:
                    break;
            }
        }

        /**
         * Checks that the healthy watcher received every write and that the extra watcher was still
         * stuck and registered, then releases and cancels it and closes the engine (also when a check
         * fails). JMH worker thread.
         */
        @TearDown(Level.Trial)
        public void stop()
        {
            try
            {
                engine.verifyDelivered();
                if (extraWatcher != null && extraWatcher.isCancelled())
                {
                    throw new IllegalStateException("the " + extra + " watcher was cancelled during the trial, so the trial " +
                        "did not measure a stuck watcher: " + extraWatcher.cancellation());
                }
                if (stalledListener != null && !stalledListener.hasStalled())
                {
                    throw new IllegalStateException("the stalled listener was never called");
                }
            }
            finally
            {
                if (stalledListener != null)
                {
                    stalledListener.release();
                }
                // Cancelled before the close: an in-memory engine that closes a push watcher whose queued
                // events the window has overwritten leaves its delivery thread spinning (see jmh/README.md).
                if (extraWatcher != null)
                {
                    extraWatcher.cancel();
                }
                engine.close();
            }
        }
    }
}
