package io.ringwatch.perf.recovery;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.direct.DirectWriter;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.persistence.LogConfig;

import com.sun.management.OperatingSystemMXBean;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The recovery measurement, in three engine lifetimes over one data directory:
 * <ol>
 * <li>write: a persistent engine (ASYNC log, snapshots off) takes every put as fast as one producer
 * with bounded asynchronous puts can send them; closed;</li>
 * <li>raw read: Chronicle Queue reads every excerpt of that log ({@link RawLogRead}, timed): the
 * baseline of the replay;</li>
 * <li>replay: {@code RingWatch.open} on the directory rebuilds the index from the whole log (timed),
 * the state is checked; this engine is configured to snapshot only at close, so closing it (timed)
 * writes one snapshot at the last revision;</li>
 * <li>reopen: {@code RingWatch.open} again loads that snapshot and has nothing left to replay (timed);
 * the state is checked.</li>
 * </ol>
 * Runs on the calling thread (the engine starts its own); allocates engines and their logs.
 */
final class RecoveryRun
{
    // Headroom beyond the estimate: Chronicle maps and pre-allocates files in blocks of 64 MiB.
    private static final long DISK_SLACK_BYTES = 512L * 1024 * 1024;
    /** Recovery runs on the opening thread: its CPU time is the recovery's work, whatever else the machine runs. */
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /** The whole process's CPU time: recovery's reader thread ends inside the open, so no thread figure holds it. */
    private static final OperatingSystemMXBean PROCESS =
        ManagementFactory.getPlatformMXBean(OperatingSystemMXBean.class);

    private final RecoverySettings settings;
    private final Path directory;
    private final PrintWriter progress;

    /**
     * @param settings  what to write.
     * @param directory an empty or absent directory for the engine's data; the caller deletes it.
     * @param progress  where to report each phase as it ends.
     */
    RecoveryRun(final RecoverySettings settings, final Path directory, final PrintWriter progress)
    {
        this.settings = settings;
        this.directory = directory;
        this.progress = progress;
    }

    /** The process's CPU time so far, or 0 where the JVM does not report it. */
    private static long processCpuNanos()
    {
        return PROCESS == null ? 0 : Math.max(0, PROCESS.getProcessCpuTime());
    }

    /**
     * Runs the three phases.
     *
     * @return the figures.
     * @throws IllegalArgumentException if the directory is not empty or its disk lacks the space the
     *                                  run needs (nothing written).
     * @throws IllegalStateException    if a put failed or a recovered engine disagrees with what was written.
     */
    RecoveryFigures run()
    {
        checkDirectory();
        final double loadAverage = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();

        final RingWatch writing = RingWatch.open(config(0));
        final long writeNanos = timeOrClose(writing, () -> writeAll(writing));
        final long writeCloseNanos = timeClose(writing);
        final long logBytes = bytesUnder(directory);
        report("written", writeNanos);
        final long rawReadNanos = RawLogRead.timeRead(directory, settings.revisions());
        report("read raw by Chronicle", rawReadNanos);

        final long replayProcessCpuStart = processCpuNanos();
        final long replayCpuStart = THREADS.getCurrentThreadCpuTime();
        final long replayStart = System.nanoTime();
        final RingWatch replayed = RingWatch.open(config(Long.MAX_VALUE));
        final long replayNanos = System.nanoTime() - replayStart;
        final long replayCpuNanos = THREADS.getCurrentThreadCpuTime() - replayCpuStart;
        final long replayProcessCpuNanos = processCpuNanos() - replayProcessCpuStart;
        report("replayed", replayNanos);
        timeOrClose(replayed, () -> check(replayed));
        final long snapshotNanos = timeClose(replayed);
        final long snapshotBytes = bytesUnder(directory) - logBytes;

        final long reopenCpuStart = THREADS.getCurrentThreadCpuTime();
        final long reopenStart = System.nanoTime();
        final RingWatch reopened = RingWatch.open(config(0));
        final long reopenNanos = System.nanoTime() - reopenStart;
        final long reopenCpuNanos = THREADS.getCurrentThreadCpuTime() - reopenCpuStart;
        report("reopened from the snapshot", reopenNanos);
        timeOrClose(reopened, () -> check(reopened));
        reopened.close();
        return new RecoveryFigures(settings, writeNanos, writeCloseNanos, logBytes, rawReadNanos, replayNanos, replayCpuNanos,
            replayProcessCpuNanos, snapshotNanos, snapshotBytes, reopenNanos, reopenCpuNanos, loadAverage, Runtime.getRuntime().availableProcessors());
    }

    /** Runs {@code work} and returns how long it took; closes the engine if it throws. */
    private static long timeOrClose(final RingWatch engine, final Runnable work)
    {
        final long start = System.nanoTime();
        try
        {
            work.run();
        }
        catch (final RuntimeException e)
        {
            engine.close();
            throw e;
        }
        return System.nanoTime() - start;
    }

    private static long timeClose(final RingWatch engine)
    {
        final long start = System.nanoTime();
        engine.close();
        return System.nanoTime() - start;
    }

    private RingWatchConfig config(final long snapshotEveryRevisions)
    {
        return RingWatchConfig.builder()
            .persistence(LogConfig.builder(directory).durability(LogConfig.Durability.ASYNC).build())
            .snapshotEveryRevisions(snapshotEveryRevisions)
            .build();
    }

    private void writeAll(final RingWatch engine)
    {
        final DirectWriter writer = engine.newDirectWriter();
        final RecoveryWorkload workload = new RecoveryWorkload(settings.keys(), settings.valueBytes());
        final InFlightPuts puts = new InFlightPuts();
        final long revisions = settings.revisions();
        for (long put = 0; put < revisions; put++)
        {
            writer.putAsync(workload.keyOf(put), 0, RecoveryWorkload.KEY_BYTES,
                workload.valueOf(put), 0, settings.valueBytes(), puts);
            puts.sent();
        }
        puts.awaitAll();
        if (puts.failed() != 0)
        {
            throw new IllegalStateException(puts.failed() + " of " + revisions + " puts failed", puts.firstFailure());
        }
    }

    private void check(final RingWatch engine)
    {
        final long revisions = settings.revisions();
        if (engine.currentRevision() != revisions)
        {
            throw new IllegalStateException("recovered revision " + engine.currentRevision() + ", wrote " + revisions);
        }
        if (engine.size() != settings.liveKeys())
        {
            throw new IllegalStateException("recovered " + engine.size() + " keys, wrote " + settings.liveKeys());
        }
        final long lastPut = revisions - 1;
        final RecoveryWorkload workload = new RecoveryWorkload(settings.keys(), settings.valueBytes());
        final byte[] key = Arrays.copyOf(workload.keyOf(lastPut).byteArray(), RecoveryWorkload.KEY_BYTES);
        final Optional<KeyValue> last = engine.get(key);
        if (last.isEmpty() || last.get().modRevision() != revisions || RecoveryWorkload.putOf(last.get().value()) != lastPut)
        {
            throw new IllegalStateException("the last key written was not recovered as written: " + last);
        }
    }

    private void checkDirectory()
    {
        try
        {
            if (Files.exists(directory))
            {
                try (Stream<Path> entries = Files.list(directory))
                {
                    if (entries.findAny().isPresent())
                    {
                        throw new IllegalArgumentException(directory + " is not empty");
                    }
                }
            }
            Path existing = directory.toAbsolutePath();
            while (!Files.exists(existing))
            {
                existing = existing.getParent();
            }
            final long usable = Files.getFileStore(existing).getUsableSpace();
            final long needed = settings.estimatedDiskBytes() + DISK_SLACK_BYTES;
            if (usable < needed)
            {
                throw new IllegalArgumentException(String.format(
                    "%s has %,d MB free; %,d revisions need about %,d MB", existing, usable / 1_000_000,
                    settings.revisions(), needed / 1_000_000));
            }
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
    }

    private void report(final String phase, final long nanos)
    {
        progress.printf("%s: %,d revisions in %.2f s%n", phase, settings.revisions(), nanos / 1e9);
        progress.flush();
    }

    static long bytesUnder(final Path directory)
    {
        try (Stream<Path> paths = Files.walk(directory))
        {
            return paths.filter(Files::isRegularFile).mapToLong(path ->
            {
                try
                {
                    return Files.size(path);
                }
                catch (final IOException e)
                {
                    throw new UncheckedIOException(e);
                }
            }).sum();
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
    }
}
