package io.ringwatch.jmh.engine;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.RingWatchConfig;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.engine.write.DirectWriter;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * One in-memory engine shared by every producer thread of a trial: the default configuration, every
 * key of {@link WriteKeys} written before the measurement (so measured puts are updates of a full
 * index, the steady state), and one push watcher on all keys whose {@link RevisionCheckingListener}
 * must receive every revision from the watcher's start, so every measured put also travels the watch
 * path (window, dispatcher, delivery thread).
 * <p>
 * Each {@link AsyncEngineProducer} takes its writer and {@link AckWindow} from here in its set-up.
 * Opened and closed once per trial by one JMH worker thread; the tear-down runs once every producer
 * has stopped sending and fails the trial if a put failed, the acknowledged puts do not account for
 * the engine's revisions, or the watcher did not receive exactly every revision after it started.
 */
@State(Scope.Benchmark)
public class SharedEngineState
{
    private static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(30);
    private static final byte[] LAST_KEY = "last".getBytes(StandardCharsets.US_ASCII);

    private final List<AckWindow> producers = new CopyOnWriteArrayList<>();
    private RingWatch engine;
    private RevisionCheckingListener listener;
    private long firstWatchedRevision;

    /**
     * Opens the engine, writes every key once, then starts the watcher at the next revision. One JMH
     * worker thread, once per trial; allocates the engine and the key set.
     *
     * @throws IllegalStateException if writing the key set failed.
     */
    @Setup(Level.Trial)
    public void open()
    {
        engine = RingWatch.open(RingWatchConfig.defaults());
        writeEveryKey();
        firstWatchedRevision = engine.currentRevision() + 1;
        listener = new RevisionCheckingListener(firstWatchedRevision);
        engine.watch(WatchRequest.of(KeyRange.all()).startRevision(firstWatchedRevision), listener);
    }

    /**
     * @return a writer for the calling producer thread. Producer thread, in its set-up; allocates the
     * writer.
     */
    DirectWriter newWriter()
    {
        return engine.newDirectWriter();
    }

    /**
     * A callback for one producer thread's puts, checked at tear-down, that holds the producer to the
     * watcher's pace: without that bound the producers outrun the watch path on a small machine until
     * the window laps the watcher and the trial fails. Producer thread, in its set-up; allocates the
     * window.
     *
     * @return the producer's window.
     */
    AckWindow registerProducer()
    {
        final AckWindow acks = new AckWindow(listener);
        producers.add(acks);
        return acks;
    }

    /**
     * Checks every put and the watcher, then closes the engine (also when a check fails). One JMH
     * worker thread, once per trial, after every producer has stopped sending.
     *
     * @throws IllegalStateException naming the first thing that is wrong.
     */
    @TearDown(Level.Trial)
    public void close()
    {
        try
        {
            // The single writer applies in ring order: once this blocking put returns, every put sent
            // before it was acknowledged.
            final long last = engine.put(LAST_KEY, LAST_KEY).revision();
            long acknowledged = 0;
            for (final AckWindow acks : producers)
            {
                requireNoFailure(acks);
                acknowledged += acks.acknowledged();
            }
            if (last != firstWatchedRevision + acknowledged)
            {
                throw new IllegalStateException("the engine is at revision " + last + " but " + acknowledged +
                    " puts were acknowledged after revision " + (firstWatchedRevision - 1));
            }
            listener.verifyReceivedThrough(last, DRAIN_TIMEOUT);
        }
        finally
        {
            producers.clear();
            engine.close();
        }
    }

    private void writeEveryKey()
    {
        final WriteKeys keys = new WriteKeys();
        final DirectWriter writer = engine.newDirectWriter();
        final AckWindow acks = new AckWindow();
        for (int i = 0; i < WriteKeys.KEY_COUNT; i++)
        {
            final int position = keys.next();
            writer.putAsync(keys.keyBuffer(), WriteKeys.keyOffset(position), WriteKeys.KEY_BYTES,
                keys.valueBuffer(), 0, WriteKeys.VALUE_BYTES, acks);
            acks.sent();
        }
        acks.awaitAll();
        requireNoFailure(acks);
    }

    private static void requireNoFailure(final AckWindow acks)
    {
        if (acks.failed() != 0)
        {
            throw new IllegalStateException(acks.failed() + " puts failed", acks.firstFailure());
        }
    }
}
