package io.ringwatch.jmh.engine;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.direct.DirectWriter;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.jmh.persistence.ScratchDirectory;
import io.ringwatch.persistence.LogConfig;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * One engine shared by every producer thread of {@link WriteBenchmark}: the default configuration,
 * in memory or with a revision log of the chosen durability in a fresh directory (snapshots off, so
 * the log is the only persistence work measured); every key of {@link WriteKeys} written before the
 * measurement (so measured puts are updates of a full index, and each log excerpt carries the
 * previous value, as in steady state); and, when {@link #watched}, one push watcher on all keys whose
 * {@link RevisionCheckingListener} must receive every revision from its start, so every measured put
 * also travels the watch path (window, dispatcher, delivery thread).
 * <p>
 * Each {@link WriteProducer} takes its writer and {@link AckWindow} from here in its set-up. Opened
 * and closed once per trial by one JMH worker thread, so that {@code -prof gc} counts the puts alone
 * (an engine opened per iteration would add its set-up to the iteration's bytes); the log's directory
 * is deleted at the trial's end (about 100 bytes per put: a few hundred MB for a short trial). The
 * tear-down runs once every producer has stopped sending and fails the trial if a put failed, the
 * acknowledged puts do not account for the engine's revisions, or the watcher did not receive exactly
 * every revision after it started.
 * <p>
 * A SYNC engine prints, after each iteration, its mean forced batch: the revisions its journal
 * appended in the iteration over the flushes it forced ({@link JournalBatches}), the {@code syncEvery}
 * to give the raw baselines ({@code rawLog}, {@code rawChronicle}) to compare at the same batch size.
 */
@State(Scope.Benchmark)
public class WriteEngineState
{
    private static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(30);
    private static final byte[] LAST_KEY = "last".getBytes(StandardCharsets.US_ASCII);

    /** In memory, or with a revision log that acknowledges after the append (ASYNC) or the sync (SYNC). */
    @Param({"MEMORY", "ASYNC", "SYNC"})
    public Storage storage;

    /** Whether one push watcher of every key receives every put (false: the write path alone). */
    @Param({"true"})
    public boolean watched;

    /**
     * The revision log's mapping block size in MiB, or 0 (the default) for the log's own
     * ({@link LogConfig#DEFAULT_BLOCK_SIZE}, 16 MiB); {@code rawChronicle}'s parameter of the same
     * name, so {@code -p blockMiB=64} compares the engine and the bare queue at one mapping.
     */
    @Param({"0"})
    public int blockMiB;

    private final List<AckWindow> producers = new CopyOnWriteArrayList<>();
    private RingWatch engine;
    private RevisionCheckingListener listener;
    private Path directory;
    private long firstMeasuredRevision;
    private JournalBatches batches;

    /**
     * Opens the engine, writes every key once, then starts the watcher at the next revision. One JMH
     * worker thread, once per trial; allocates the engine and the key set.
     *
     * @throws IllegalStateException if writing the key set failed.
     */
    @Setup(Level.Trial)
    public void open()
    {
        final RingWatchConfig.Builder config = RingWatchConfig.builder();
        if (storage.durability() != null)
        {
            directory = ScratchDirectory.create("engine-");
            final LogConfig.Builder log = LogConfig.builder(directory).durability(storage.durability());
            if (blockMiB > 0)
            {
                log.blockSize(blockMiB * 1024L * 1024L);
            }
            config.persistence(log.build()).snapshotEveryRevisions(0);
        }
        engine = RingWatch.open(config.build());
        batches = storage == Storage.SYNC ? new JournalBatches(engine.stats()) : null;
        writeEveryKey();
        firstMeasuredRevision = engine.currentRevision() + 1;
        listener = new RevisionCheckingListener(firstMeasuredRevision);
        if (watched)
        {
            engine.watch(WatchRequest.of(KeyRange.all()).startRevision(firstMeasuredRevision), listener);
        }
    }

    /**
     * Notes where the journal's counts stand as the iteration starts. One JMH worker thread, before
     * each iteration; allocates nothing.
     */
    @Setup(Level.Iteration)
    public void startIteration()
    {
        if (batches != null)
        {
            batches.mark();
        }
    }

    /**
     * Prints the iteration's mean forced batch (SYNC only). One JMH worker thread, after each
     * iteration, once every producer has stopped; allocates the line.
     */
    @TearDown(Level.Iteration)
    public void endIteration()
    {
        if (batches != null)
        {
            System.out.print(batches.sinceMark());
        }
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
     * @param pacing when the producer waits.
     * @param window the most puts the producer keeps outstanding; a power of two.
     * @return the producer's window.
     */
    AckWindow registerProducer(final Pacing pacing, final int window)
    {
        final AckWindow acks = new AckWindow(watched ? listener : () -> Long.MAX_VALUE, pacing, window);
        producers.add(acks);
        return acks;
    }

    /**
     * Checks every put and the watcher, then closes the engine and deletes its directory (also when a
     * check fails). One JMH worker thread, once per trial, after every producer has stopped.
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
            if (last != firstMeasuredRevision + acknowledged)
            {
                throw new IllegalStateException("the engine is at revision " + last + " but " + acknowledged +
                    " puts were acknowledged after revision " + (firstMeasuredRevision - 1));
            }
            if (watched)
            {
                listener.verifyReceivedThrough(last, DRAIN_TIMEOUT);
            }
        }
        finally
        {
            producers.clear();
            engine.close();
            if (directory != null)
            {
                ScratchDirectory.delete(directory);
            }
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
