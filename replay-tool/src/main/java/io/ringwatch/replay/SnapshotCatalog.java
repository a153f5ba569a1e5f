package io.ringwatch.replay;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The committed index snapshots of a data directory: {@code snapshots/snapshot-<revision>.snap}, as
 * the persistence module names them (files still being written end in {@code .tmp} and are not
 * listed). The tool needs every snapshot, not only the newest the log opens, to rebuild the state
 * at an older revision. Called on the command's thread; allocates the list.
 */
final class SnapshotCatalog
{
    private static final Pattern NAME = Pattern.compile("snapshot-(\\d{1,20})\\.snap");

    private SnapshotCatalog()
    {
    }

    /**
     * The revisions of the committed snapshots, newest first.
     *
     * @param dataDirectory the log's data directory.
     * @return the revisions; empty when there is none.
     * @throws LogUnavailableException if the snapshot directory cannot be listed.
     */
    static List<Long> revisions(final Path dataDirectory)
    {
        final Path directory = dataDirectory.resolve("snapshots");
        final List<Long> revisions = new ArrayList<>();
        if (!Files.isDirectory(directory))
        {
            return revisions;
        }
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory))
        {
            for (final Path file : stream)
            {
                final Matcher matcher = NAME.matcher(file.getFileName().toString());
                if (matcher.matches())
                {
                    revisions.add(Long.parseLong(matcher.group(1)));
                }
            }
        }
        catch (final IOException ex)
        {
            throw new LogUnavailableException("cannot list " + directory + ": " + ex.getMessage(), ex);
        }
        revisions.sort(Collections.reverseOrder());
        return revisions;
    }

    /**
     * The file of the snapshot taken at {@code revision}.
     *
     * @param dataDirectory the log's data directory.
     * @param revision      a revision from {@link #revisions(Path)}.
     * @return the snapshot file's path.
     */
    static Path file(final Path dataDirectory, final long revision)
    {
        return dataDirectory.resolve("snapshots").resolve(String.format("snapshot-%020d.snap", revision));
    }
}
