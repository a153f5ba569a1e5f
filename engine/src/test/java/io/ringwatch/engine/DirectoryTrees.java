package io.ringwatch.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * Copies a data directory as it is on disk, files and folders, for tests that take a snapshot of a
 * live or stalled engine's directory as a kill -9 would leave it and reopen the copy. Shared with
 * the persistence and replay-tool modules' tests through the engine's test jar.
 */
public final class DirectoryTrees
{
    private DirectoryTrees()
    {
    }

    /**
     * @param from the directory to copy.
     * @param to   where the copy goes (created, with every folder below it).
     * @throws IOException if a file cannot be read or written.
     */
    public static void copyTree(final Path from, final Path to) throws IOException
    {
        try (Stream<Path> paths = Files.walk(from))
        {
            for (final Path path : (Iterable<Path>)paths::iterator)
            {
                final Path target = to.resolve(from.relativize(path).toString());
                if (Files.isDirectory(path))
                {
                    Files.createDirectories(target);
                }
                else
                {
                    Files.copy(path, target);
                }
            }
        }
    }
}
