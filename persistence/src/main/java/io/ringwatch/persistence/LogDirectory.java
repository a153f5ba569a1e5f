package io.ringwatch.persistence;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The layout of a data directory and the checks made before anything in it is touched:
 * <pre>
 * dir/ringwatch.meta        metadata ({@link MetadataFile})
 * dir/ringwatch.lock        the owner's lock ({@link DirectoryLock})
 * dir/ringwatch.leases      lease grants and revokes ({@link LeaseFile})
 * dir/queue/*.cq4, *.cq4t   the Chronicle queue
 * dir/snapshots/*.snap      index snapshots
 * </pre>
 * Any other entry is foreign and refuses the open. Package-private; called on the opening thread.
 */
final class LogDirectory
{
    static final String QUEUE = "queue";
    static final String SNAPSHOTS = "snapshots";

    private LogDirectory()
    {
    }

    /**
     * Checks {@code directory} and reads its metadata without changing anything.
     *
     * @param writable whether the caller will write.
     * @return the metadata, or null for a directory that is absent or empty (a new log): empty also
     *         when it holds only what a first open leaves that failed (a full disk) or died before
     *         writing its metadata: the lock file, empty {@code queue/} and {@code snapshots/}, a
     *         metadata temp file.
     * @throws LogDirectoryException if the path is not a usable data directory.
     */
    static MetadataFile inspect(final Path directory, final boolean writable)
    {
        if (!Files.exists(directory, LinkOption.NOFOLLOW_LINKS) && !Files.isSymbolicLink(directory))
        {
            if (!writable)
            {
                throw new LogDirectoryException(directory + " does not exist");
            }
            final Path parent = directory.toAbsolutePath().getParent();
            if (parent == null || !Files.isDirectory(parent) || !Files.isWritable(parent))
            {
                throw new LogDirectoryException(directory + " does not exist and its parent is not a writable directory");
            }
            return null;
        }
        if (!Files.isDirectory(directory))
        {
            throw new LogDirectoryException(directory + " is not a directory");
        }
        if (writable && !Files.isWritable(directory))
        {
            throw new LogDirectoryException(directory + " is not writable");
        }
        boolean empty = true;
        for (final Path entry : list(directory))
        {
            final String name = entry.getFileName().toString();
            // Not "is a regular file": a stat that fails (seen once while the owner let go of it)
            // would make our own lock file look foreign.
            if (DirectoryLock.NAME.equals(name) && !Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS))
            {
                continue;
            }
            if (QUEUE.equals(name) && Files.isDirectory(entry))
            {
                empty &= checkEntries(entry, ".cq4", ".cq4t") == 0;
            }
            else if (SNAPSHOTS.equals(name) && Files.isDirectory(entry))
            {
                empty &= checkEntries(entry, SnapshotFiles.SUFFIX, SnapshotFiles.TEMP_SUFFIX) == 0;
            }
            else if (MetadataFile.TEMP_NAME.equals(name))
            {
                // Left by a metadata write that failed (a full disk) or was killed: alone, with the
                // empty layout, it is what a first open leaves that never wrote its metadata.
                continue;
            }
            else if (!MetadataFile.NAME.equals(name) && !LeaseFile.NAME.equals(name) && !LeaseFile.TEMP_NAME.equals(name))
            {
                throw new LogDirectoryException(directory + " holds a foreign entry '" + name + "'; refusing to use it");
            }
            else
            {
                empty = false;
            }
        }
        final MetadataFile metadata = MetadataFile.read(directory);
        if (metadata == null && !empty)
        {
            throw new LogDirectoryException(directory + " has log files but no " + MetadataFile.NAME);
        }
        return metadata;
    }

    /**
     * Creates the (empty) data directory itself, so it can be locked before the layout is written.
     *
     * @throws LogDirectoryException if it cannot be created.
     */
    static void createDirectory(final Path directory)
    {
        try
        {
            Files.createDirectories(directory);
        }
        catch (final IOException ex)
        {
            throw new LogDirectoryException("Cannot create " + directory + ": " + ex, ex);
        }
    }

    /**
     * Creates the directory layout and the first metadata file for a new log.
     *
     * @throws LogDirectoryException if the directories cannot be created.
     */
    static void create(final Path directory)
    {
        try
        {
            Files.createDirectories(directory.resolve(QUEUE));
            Files.createDirectories(directory.resolve(SNAPSHOTS));
        }
        catch (final IOException ex)
        {
            throw new LogDirectoryException("Cannot create the log layout in " + directory + ": " + ex, ex);
        }
        new MetadataFile(0, 0).write(directory);
    }

    /**
     * @return how many entries {@code directory} holds, all of them known; an entry with a known
     * name that is gone when it is checked is not counted: a live owner renamed it (a snapshot's
     * temp file committed) or deleted it (a snapshot pruned, a cycle file retention dropped) since
     * the listing, as the checks before the lock and the replay tool's, which takes none, may see.
     */
    private static int checkEntries(final Path directory, final String... suffixes)
    {
        int count = 0;
        for (final Path entry : list(directory))
        {
            final String name = entry.getFileName().toString();
            boolean knownName = false;
            for (final String suffix : suffixes)
            {
                knownName |= name.endsWith(suffix);
            }
            if (knownName && Files.isRegularFile(entry, LinkOption.NOFOLLOW_LINKS))
            {
                count++;
            }
            else if (!knownName || Files.exists(entry, LinkOption.NOFOLLOW_LINKS))
            {
                throw new LogDirectoryException(directory + " holds a foreign entry '" + name + "'; refusing to use it");
            }
        }
        return count;
    }

    private static List<Path> list(final Path directory)
    {
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory))
        {
            final List<Path> entries = new ArrayList<>();
            stream.forEach(entries::add);
            return entries;
        }
        catch (final IOException ex)
        {
            throw new LogDirectoryException("Cannot list " + directory + ": " + ex, ex);
        }
    }
}
