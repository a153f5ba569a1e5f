package io.ringwatch.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The directory check that every open runs before it takes the lock (and the replay tool's
 * read-only open, which takes none) lists the data directory while its owner writes it: a
 * snapshot's temp file renamed to its final name, an old snapshot pruned, between the listing and
 * the check of each entry. Such an entry must not make the directory look foreign. Found by
 * OpenDuringCloseTest: a second owner opening while the first closed was refused with
 * "holds a foreign entry 'snapshot-...snap.tmp'" instead of {@code LogLockedException}.
 */
class InspectBesideAnOwnerTest
{
    @TempDir
    Path dir;

    @Test
    void entriesRenamedOrDeletedByTheOwnerDuringTheCheckAreNotForeign() throws Exception
    {
        try (RevisionLog log = RevisionLog.open(LogConfig.builder(dir).build()))
        {
            // A log with its layout and metadata; the owner's snapshotter is played by the thread below.
        }
        final Path snapshots = dir.resolve(LogDirectory.SNAPSHOTS);
        final AtomicBoolean running = new AtomicBoolean(true);
        final AtomicReference<Throwable> failed = new AtomicReference<>();
        final Thread owner = new Thread(() ->
        {
            try
            {
                for (long revision = 1; running.get(); revision++)
                {
                    final Path temp = SnapshotFiles.temp(snapshots, revision);
                    Files.write(temp, new byte[8]);
                    final Path done = Files.move(temp, SnapshotFiles.committed(snapshots, revision),
                        StandardCopyOption.ATOMIC_MOVE);
                    Files.delete(done);
                }
            }
            catch (final IOException | RuntimeException e)
            {
                failed.set(e);
            }
        }, "owner");
        owner.start();
        int refused = 0;
        String first = null;
        try
        {
            for (int i = 0; i < 20_000; i++)
            {
                try
                {
                    LogDirectory.inspect(dir, false);
                }
                catch (final LogDirectoryException e)
                {
                    refused++;
                    first = first == null ? e.getMessage() : first;
                }
            }
        }
        finally
        {
            running.set(false);
            owner.join();
        }
        assertEquals(null, failed.get());
        assertEquals(0, refused, "checks refused the directory, first: " + first);
    }
}
