package io.ringwatch.persistence;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * A queue file a writer died creating: Chronicle creates a cycle file (the log's first, or the next
 * one at a roll) and then writes its store header, the file's first document; a kill between the two
 * leaves a last cycle file whose first header is still marked not-complete. No excerpt can be in it
 * (the appender writes none before the header), yet Chronicle cannot open the queue over it
 * ({@code NotReachedException}), so before this a kill -9 at that moment left a log that no open
 * accepted. The writable open, under the directory's lock, deletes such a file (nothing of the log is
 * lost) as it voids a torn last excerpt. Package-private; the opening thread; allocates a little.
 */
final class UnbornCycleFile
{
    private UnbornCycleFile()
    {
    }

    /**
     * @param queueDirectory the log's queue directory.
     * @return the last cycle file when its store header is torn, else null.
     * @throws LogDirectoryException if the directory or file cannot be read.
     */
    static Path find(final Path queueDirectory)
    {
        if (!Files.isDirectory(queueDirectory))
        {
            return null;
        }
        try (Stream<Path> files = Files.list(queueDirectory))
        {
            final Path last = files.filter(f -> f.getFileName().toString().endsWith(".cq4")).max(Path::compareTo).orElse(null);
            if (last == null)
            {
                return null;
            }
            return QueueFileWalk.firstHeaderTorn(last) ? last : null;
        }
        catch (final IOException ex)
        {
            throw new LogDirectoryException("Cannot read " + queueDirectory + ": " + ex, ex);
        }
    }

    /**
     * Deletes the last cycle file if its store header is torn. Call only under the directory's lock.
     *
     * @param queueDirectory the log's queue directory.
     * @return true if a file was deleted.
     * @throws LogWriteException if it cannot be deleted.
     */
    static boolean remove(final Path queueDirectory)
    {
        final Path unborn = find(queueDirectory);
        if (unborn == null)
        {
            return false;
        }
        try
        {
            Files.delete(unborn);
            MetadataFile.forceDirectory(queueDirectory);
            return true;
        }
        catch (final IOException ex)
        {
            throw new LogWriteException("Cannot delete " + unborn + ", a queue file a writer died creating: " + ex, ex);
        }
    }
}
