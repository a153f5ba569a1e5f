package io.ringwatch.jmh.persistence;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Temporary data directories for the persistence benchmarks, under the jmh module's {@code target/}
 * (found from where this class was loaded: {@code target/benchmarks.jar} or {@code target/classes}),
 * or under the directory named by the system property {@value #BASE_PROPERTY}. Every directory is
 * deleted by its benchmark's tear-down. Any thread; allocates paths and streams.
 */
public final class ScratchDirectory
{
    /** System property naming another parent directory for the benchmarks' data. */
    static final String BASE_PROPERTY = "ringwatch.jmh.dataDir";

    private ScratchDirectory()
    {
    }

    /**
     * Creates a fresh, empty directory.
     *
     * @param prefix the start of its name.
     * @return the new directory.
     * @throws UncheckedIOException if it cannot be created.
     */
    public static Path create(final String prefix)
    {
        try
        {
            final Path base = Files.createDirectories(base());
            return Files.createTempDirectory(base, prefix);
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Deletes a directory and everything in it; nothing when it is null or gone.
     *
     * @param directory the directory from {@link #create}.
     * @throws UncheckedIOException if something cannot be deleted.
     */
    public static void delete(final Path directory)
    {
        if (directory == null || !Files.exists(directory))
        {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory))
        {
            for (final Path path : (Iterable<Path>)paths.sorted(Comparator.reverseOrder())::iterator)
            {
                Files.delete(path);
            }
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
    }

    private static Path base()
    {
        final String configured = System.getProperty(BASE_PROPERTY);
        if (configured != null)
        {
            return Path.of(configured);
        }
        try
        {
            // target/benchmarks.jar or target/classes: either way the parent is target/.
            final Path loadedFrom = Path.of(ScratchDirectory.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return loadedFrom.toAbsolutePath().getParent().resolve("persistence-data");
        }
        catch (final URISyntaxException e)
        {
            throw new IllegalStateException("cannot tell where the benchmarks were loaded from; set -D" + BASE_PROPERTY, e);
        }
    }
}
