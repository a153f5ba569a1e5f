package io.ringwatch.jmh.persistence;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.RingWatchConfig;
import io.ringwatch.engine.write.DirectWriter;
import io.ringwatch.jmh.engine.AckWindow;
import io.ringwatch.persistence.LogConfig;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A persistent engine shared by every producer thread: the default configuration with a revision log
 * of the chosen {@link #durability} in a fresh directory and snapshots off, so the log is the only
 * persistence work measured. No watcher: this measures the write path down to the log.
 * <p>
 * Opened per iteration in a fresh directory, with every key of {@link LogWorkload} already written
 * (so measured puts are updates and each log excerpt carries the previous value, as in steady
 * state), and closed and deleted after it: the disk holds at most one iteration's log. Tear-down
 * fails the trial if a put failed or the engine's revision disagrees with the acknowledged puts.
 */
@State(Scope.Benchmark)
public class PersistentEngineState
{
    private static final byte[] LAST_KEY = "last".getBytes(StandardCharsets.US_ASCII);

    /** When the engine acknowledges a put: after the append (ASYNC) or after the log is forced to disk (SYNC). */
    @Param({"ASYNC", "SYNC"})
    public LogConfig.Durability durability;

    RingWatch engine;
    private final List<AckWindow> producers = new CopyOnWriteArrayList<>();
    private Path directory;
    private long measuredFrom;

    /**
     * Opens the engine in a fresh directory and writes every key once. One JMH worker thread, before
     * each iteration; allocates the engine and its log.
     */
    @Setup(Level.Iteration)
    public void open()
    {
        directory = ScratchDirectory.create("engine-");
        engine = RingWatch.open(RingWatchConfig.builder()
            .persistence(LogConfig.builder(directory).durability(durability).build())
            .snapshotEveryRevisions(0)
            .build());
        final LogWorkload workload = new LogWorkload();
        final DirectWriter writer = engine.newDirectWriter();
        final AckWindow acks = new AckWindow();
        for (int i = 0; i < LogWorkload.KEY_COUNT; i++)
        {
            final int position = workload.next();
            writer.putAsync(workload.keys(), LogWorkload.keyOffset(position), LogWorkload.KEY_BYTES,
                workload.value(), 0, LogWorkload.VALUE_BYTES, acks);
            acks.sent();
        }
        acks.awaitAll();
        check(acks);
        measuredFrom = engine.currentRevision();
    }

    /**
     * A callback for one producer thread's puts in this iteration, counted at tear-down. Producer
     * thread, in its set-up; allocates the window.
     *
     * @return the producer's window.
     */
    AckWindow registerProducer()
    {
        final AckWindow acks = new AckWindow();
        producers.add(acks);
        return acks;
    }

    /**
     * Waits for every put sent, checks them, closes the engine and deletes its directory. One JMH
     * worker thread, after each iteration, once every producer has stopped sending.
     *
     * @throws IllegalStateException when a put failed or a revision is missing.
     */
    @TearDown(Level.Iteration)
    public void close()
    {
        try
        {
            // The single writer applies in order: once this blocking put returns, every put sent before it was acknowledged.
            final long last = engine.put(LAST_KEY, LAST_KEY).revision();
            long acknowledged = 0;
            for (final AckWindow acks : producers)
            {
                check(acks);
                acknowledged += acks.acknowledged();
            }
            if (last != measuredFrom + acknowledged + 1)
            {
                throw new IllegalStateException("the engine is at revision " + last + " but " + acknowledged +
                    " puts were acknowledged after revision " + measuredFrom);
            }
        }
        finally
        {
            producers.clear();
            engine.close();
            ScratchDirectory.delete(directory);
        }
    }

    private static void check(final AckWindow acks)
    {
        if (acks.failed() != 0)
        {
            throw new IllegalStateException(acks.failed() + " puts failed", acks.firstFailure());
        }
    }
}
