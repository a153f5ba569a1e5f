package io.ringwatch.jmh.engine;

import com.lmax.disruptor.BlockingWaitStrategy;
import com.lmax.disruptor.LiteBlockingWaitStrategy;
import com.lmax.disruptor.PhasedBackoffWaitStrategy;
import com.lmax.disruptor.SleepingWaitStrategy;
import com.lmax.disruptor.WaitStrategy;
import com.lmax.disruptor.YieldingWaitStrategy;
import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.errors.RingWatchException;
import io.ringwatch.engine.idle.WakeableWaitStrategy;
import io.ringwatch.engine.direct.DirectWriter;
import io.ringwatch.engine.direct.WriteCallback;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.engine.watch.Watcher;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A running engine with the default configuration, every key of {@link WriteKeys} already written
 * (so the measured puts are updates of a full index, the steady state), and one push watcher on
 * all keys whose listener counts, so every measured put also travels the watch path.
 * <p>
 * One per producer thread ({@link Scope#Thread}): it owns the thread's {@link DirectWriter} and key
 * cursor. Started and stopped once per trial on the JMH worker thread. Tear-down fails the trial if
 * the watcher missed an event or was cancelled, so a broken watch path cannot pass as fast.
 */
@State(Scope.Thread)
public class EngineState
{
    private static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(30);

    /**
     * The writer's wait strategy: {@code DEFAULT} is the engine's own, {@link WakeableWaitStrategy}
     * (spin, yield, then park until a publish wakes it); the others are the Disruptor's, {@code BLOCKING}
     * its default.
     */
    @Param({"DEFAULT", "BLOCKING", "LITE_BLOCKING", "PHASED_BACKOFF", "YIELDING", "SLEEPING"})
    public String writerWait;

    RingWatch engine;
    DirectWriter writer;
    WriteKeys keys;
    private CountingListener listener;
    private Watcher watcher;
    private long firstWatchedRevision;

    /**
     * Starts the engine, writes every key once, then starts the counting watcher. JMH worker
     * thread, once per trial; allocates the engine and the key set.
     */
    @Setup(Level.Trial)
    public void start()
    {
        final RingWatchConfig.Builder config = RingWatchConfig.builder();
        if (!"DEFAULT".equals(writerWait))
        {
            config.writerWaitStrategy(waitStrategy(writerWait));
        }
        engine = RingWatch.open(config.build());
        writer = engine.newDirectWriter();
        keys = new WriteKeys();
        writeEveryKey();
        firstWatchedRevision = engine.currentRevision() + 1;
        listener = new CountingListener();
        watcher = engine.watch(WatchRequest.of(KeyRange.all()).startRevision(firstWatchedRevision), listener);
    }

    /**
     * Checks that the watcher received every measured put, then closes the engine (also when the
     * check fails). JMH worker thread, once per trial.
     *
     * @throws IllegalStateException when the watcher was cancelled or missed events.
     */
    @TearDown(Level.Trial)
    public void stop()
    {
        try
        {
            final long expected = engine.currentRevision() - firstWatchedRevision + 1;
            if (!listener.awaitDelivered(expected, DRAIN_TIMEOUT) || watcher.isCancelled())
            {
                throw new IllegalStateException("watcher received " + listener.delivered() + " of " + expected +
                    " events; cancellation: " + listener.cancellation());
            }
        }
        finally
        {
            engine.close();
        }
    }

    private static Supplier<WaitStrategy> waitStrategy(final String name)
    {
        switch (name)
        {
            case "BLOCKING":
                return BlockingWaitStrategy::new;
            case "LITE_BLOCKING":
                return LiteBlockingWaitStrategy::new;
            case "PHASED_BACKOFF":
                return () -> PhasedBackoffWaitStrategy.withLiteLock(20, 200, TimeUnit.MICROSECONDS);
            case "YIELDING":
                return YieldingWaitStrategy::new;
            case "SLEEPING":
                return SleepingWaitStrategy::new;
            default:
                throw new IllegalArgumentException("unknown writer wait strategy: " + name);
        }
    }

    private void writeEveryKey()
    {
        // Asynchronous puts keep set-up short; the blocking put of the last key returns only after the
        // single writer has applied every earlier one.
        final FailureRecorder failures = new FailureRecorder();
        for (int i = 0; i < WriteKeys.KEY_COUNT - 1; i++)
        {
            final int position = keys.next();
            writer.putAsync(keys.keyBuffer(), WriteKeys.keyOffset(position), WriteKeys.KEY_BYTES,
                keys.valueBuffer(), 0, WriteKeys.VALUE_BYTES, failures);
        }
        final int last = keys.next();
        writer.put(keys.keyBuffer(), WriteKeys.keyOffset(last), WriteKeys.KEY_BYTES,
            keys.valueBuffer(), 0, WriteKeys.VALUE_BYTES);
        if (failures.failure != null)
        {
            throw new IllegalStateException("writing the key set failed", failures.failure);
        }
    }

    /** Keeps the last failure of the set-up's asynchronous puts; called on the writer thread. */
    private static final class FailureRecorder implements WriteCallback
    {
        private volatile RingWatchException failure;

        @Override
        public void onWritten(final long revision, final boolean succeeded, final long deleted)
        {
        }

        @Override
        public void onFailed(final RingWatchException error)
        {
            failure = error;
        }
    }
}
