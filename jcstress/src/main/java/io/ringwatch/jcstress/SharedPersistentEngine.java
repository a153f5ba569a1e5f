package io.ringwatch.jcstress;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.persistence.LogConfig;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The one persistent {@link RingWatch} engine that the catching-up stress tests of a jcstress fork share (see
 * {@link SharedEngine} for why instances share an engine and keep apart by fresh keys).
 * <p>
 * Its revision log lives in a temporary data directory; a shutdown hook closes the engine and deletes the
 * directory when the fork exits. Its watch window is fixed at 16 events (min = max, and a freshness of 1 ns
 * that no event meets, so it would not grow either way), so a handful of writes pushes a revision out of the
 * window and a watcher asking for it has to catch up from the log. No index snapshots: nothing but the log
 * is written.
 * <p>
 * Any thread; {@link #engine()} starts the engine (and creates the directory) on first use.
 */
final class SharedPersistentEngine
{
    /** Events the watch window holds, always. */
    static final int WINDOW_EVENTS = 16;

    private static final Path DIRECTORY = createDirectory();
    private static final RingWatch ENGINE = RingWatch.open(RingWatchConfig.builder()
        .persistence(LogConfig.builder(DIRECTORY).build())
        .snapshotEveryRevisions(0)
        .windowCapacity(WINDOW_EVENTS, WINDOW_EVENTS)
        .windowFreshness(Duration.ofNanos(1))
        .maxKeyBytes(32)
        .maxValueBytes(8)
        .windowBytesPerEvent(64)
        .build());

    static
    {
        Runtime.getRuntime().addShutdownHook(new Thread(SharedPersistentEngine::closeAndDelete, "ringwatch-jcstress-cleanup"));
    }

    private SharedPersistentEngine()
    {
    }

    /**
     * The shared persistent engine, started by the first call in this JVM. Any thread.
     *
     * @return the engine.
     */
    static RingWatch engine()
    {
        return ENGINE;
    }

    private static Path createDirectory()
    {
        try
        {
            return Files.createTempDirectory("ringwatch-jcstress-");
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException("cannot create the revision log's directory", e);
        }
    }

    private static void closeAndDelete()
    {
        try
        {
            ENGINE.close();
        }
        finally
        {
            deleteDirectory();
        }
    }

    private static void deleteDirectory()
    {
        try (Stream<Path> paths = Files.walk(DIRECTORY))
        {
            // Deepest first, so each directory is empty when its turn comes.
            for (final Path path : (Iterable<Path>)paths.sorted(Comparator.reverseOrder())::iterator)
            {
                Files.deleteIfExists(path);
            }
        }
        catch (final IOException e)
        {
            // The JVM is exiting: say what was left behind, there is nobody to throw to.
            System.err.println("could not delete " + DIRECTORY + ": " + e);
        }
    }
}
