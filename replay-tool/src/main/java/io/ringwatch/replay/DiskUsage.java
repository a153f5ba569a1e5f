package io.ringwatch.replay;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * What a data directory takes on disk: regular files and their apparent sizes, with the queue's
 * cycle files and the snapshots counted apart. Chronicle allocates cycle files sparsely, so their
 * apparent size exceeds the blocks they use. Immutable; any thread.
 *
 * @param files          every regular file under the directory.
 * @param bytes          their apparent sizes, summed.
 * @param cycleFiles     queue cycle files ({@code .cq4}).
 * @param snapshotFiles  committed snapshots ({@code .snap}).
 */
record DiskUsage(long files, long bytes, long cycleFiles, long snapshotFiles)
{
    /**
     * Walks {@code directory}.
     *
     * @param directory a data directory.
     * @return its usage.
     * @throws LogUnavailableException if it cannot be walked.
     */
    static DiskUsage of(final Path directory)
    {
        long files = 0;
        long bytes = 0;
        long cycles = 0;
        long snapshots = 0;
        try (Stream<Path> walk = Files.walk(directory))
        {
            for (final Path file : (Iterable<Path>)walk.filter(Files::isRegularFile)::iterator)
            {
                final String name = file.getFileName().toString();
                files++;
                bytes += Files.size(file);
                cycles += name.endsWith(".cq4") ? 1 : 0;
                snapshots += name.endsWith(".snap") ? 1 : 0;
            }
        }
        catch (final IOException ex)
        {
            throw new LogUnavailableException("cannot measure " + directory + ": " + ex.getMessage(), ex);
        }
        return new DiskUsage(files, bytes, cycles, snapshots);
    }
}
