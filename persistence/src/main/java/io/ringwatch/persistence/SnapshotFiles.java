package io.ringwatch.persistence;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Names of snapshot files and the pruning of old ones. A committed snapshot is
 * {@code snapshot-<revision, 20 digits>.snap}; one being written ends in {@code .snap.tmp}.
 * Package-private; callers hold the owning log's metadata lock.
 */
final class SnapshotFiles
{
    static final String SUFFIX = ".snap";
    static final String TEMP_SUFFIX = ".snap.tmp";
    private static final String PREFIX = "snapshot-";

    private SnapshotFiles()
    {
    }

    static Path committed(final Path directory, final long revision)
    {
        return directory.resolve(String.format("%s%020d%s", PREFIX, revision, SUFFIX));
    }

    static Path temp(final Path directory, final long revision)
    {
        return directory.resolve(String.format("%s%020d%s", PREFIX, revision, TEMP_SUFFIX));
    }

    /**
     * The revisions of the committed snapshots in {@code directory}, newest first.
     */
    static List<Long> revisions(final Path directory)
    {
        final List<Long> revisions = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory, PREFIX + "*" + SUFFIX))
        {
            for (final Path file : stream)
            {
                final String name = file.getFileName().toString();
                try
                {
                    revisions.add(Long.parseLong(name.substring(PREFIX.length(), name.length() - SUFFIX.length())));
                }
                catch (final NumberFormatException ex)
                {
                    throw new LogDirectoryException(directory + " holds a foreign snapshot name '" + name + "'", ex);
                }
            }
        }
        catch (final IOException ex)
        {
            throw new LogDirectoryException("Cannot list " + directory + ": " + ex, ex);
        }
        revisions.sort(Collections.reverseOrder());
        return revisions;
    }

    /**
     * Deletes all but the {@code keep} newest committed snapshots, and every temp file of a revision
     * at or below the newest committed one: a process killed mid-write leaves its temp file behind
     * (as large as a snapshot), and no writer of such a revision could still commit a newer
     * snapshot.
     */
    static void prune(final Path directory, final int keep)
    {
        final List<Long> revisions = revisions(directory);
        for (int i = keep; i < revisions.size(); i++)
        {
            delete(committed(directory, revisions.get(i)), "old snapshot " + revisions.get(i));
        }
        if (revisions.isEmpty())
        {
            return;
        }
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory, PREFIX + "*" + TEMP_SUFFIX))
        {
            for (final Path file : stream)
            {
                final String name = file.getFileName().toString();
                final String digits = name.substring(PREFIX.length(), name.length() - TEMP_SUFFIX.length());
                final long revision = revisionOf(digits);
                if (revision > 0 && revision <= revisions.get(0))
                {
                    delete(file, "abandoned snapshot " + name);
                }
            }
        }
        catch (final IOException ex)
        {
            throw new LogWriteException("Cannot list " + directory + ": " + ex, ex);
        }
    }

    /** The revision a temp file's name holds, or -1 for a name this class did not write. */
    private static long revisionOf(final String digits)
    {
        try
        {
            return Long.parseLong(digits);
        }
        catch (final NumberFormatException ex)
        {
            return -1;
        }
    }

    private static void delete(final Path file, final String what)
    {
        try
        {
            Files.deleteIfExists(file);
        }
        catch (final IOException ex)
        {
            throw new LogWriteException("Cannot delete " + what + ": " + ex, ex);
        }
    }
}
