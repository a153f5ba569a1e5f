package io.ringwatch.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import net.openhft.chronicle.queue.rollcycles.TestRollCycles;
import org.agrona.concurrent.UnsafeBuffer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A real full disk: an 8 MiB tmpfs, where a mapped page the file system cannot back raises SIGBUS.
 * Skipped (with the reason) where the test cannot mount one, i.e. when not run as root.
 */
class TmpfsDiskFullTest
{
    private static final int VALUE_BYTES = 16 * 1024;

    @TempDir
    Path root;

    @RegisterExtension
    final SmallTmpfs tmpfs = new SmallTmpfs();

    private final BigRevisions revisions = new BigRevisions(VALUE_BYTES);

    private LogConfig config(final long reserve)
    {
        return LogConfig.builder(tmpfs.log()).blockSize(1 << 20).durability(LogConfig.Durability.SYNC).diskReserveBytes(reserve).build();
    }

    private long fill(final RevisionLog log)
    {
        long revision = 1;
        while (true)
        {
            try
            {
                revisions.write(log, revision);
                log.flush();
            }
            catch (final LogWriteException expected)
            {
                assertEquals(revision - 1, log.lastRevision());
                return revision - 1;
            }
            revision++;
            assertTrue(revision < 2_000, "an 8 MiB tmpfs never filled");
        }
    }

    @Test
    void aFullTmpfsFailsTheAppendTypedAndLosesNoAcknowledgedRevision()
    {
        final long acknowledged;
        try (RevisionLog log = RevisionLog.open(config(0)))
        {
            acknowledged = fill(log);
            assertTrue(acknowledged > 100, "filled after " + acknowledged);
            revisions.readAll(log, acknowledged);
            assertTrue(log.verify().ok(), () -> log.verify().problem());
            try (LogReader reader = log.reader())
            {
                assertTrue(reader.seek(1), "an old revision is still reachable");
            }
            assertThrows(LogWriteException.class, () -> revisions.write(log, acknowledged + 1), "still full");
        }
        assertThrows(RevisionLogException.class, () -> RevisionLog.open(config(0)), "reopen on the full disk");
        try (RevisionLog reader = RevisionLog.openReadOnly(tmpfs.log()))
        {
            revisions.readAll(reader, acknowledged);
            assertTrue(reader.verify().ok(), () -> reader.verify().problem());
        }
        assertTrue(Tmpfs.resize(tmpfs.mount(), 64), "remount with room");
        try (RevisionLog log = RevisionLog.open(config(0)))
        {
            assertEquals(acknowledged, log.lastRevision(), "every acknowledged revision recovered");
            revisions.readAll(log, acknowledged);
            revisions.write(log, acknowledged + 1);
            log.flush();
            revisions.readAll(log, acknowledged + 1);
        }
    }

    /**
     * The very first open of a log on a full disk fails typed, and once there is room again the
     * directory it left opens as a new log (it used to be refused for ever: its layout was created,
     * its metadata file could not be written).
     */
    @Test
    void aFirstOpenOnAFullTmpfsFailsTypedAndTheDirectoryOpensOnceThereIsRoom() throws IOException
    {
        final Path filler = tmpfs.mount().resolve("filler");
        final byte[] block = new byte[64 * 1024];
        try (OutputStream out = Files.newOutputStream(filler))
        {
            while (true)
            {
                out.write(block);
            }
        }
        catch (final IOException full)
        {
            // The tmpfs is full.
        }
        assertThrows(RevisionLogException.class, () -> RevisionLog.open(config(0)), "first open on a full disk");
        Files.delete(filler);
        try (RevisionLog log = RevisionLog.open(config(0)))
        {
            assertEquals(0, log.lastRevision());
            revisions.write(log, 1);
            log.flush();
        }
        try (RevisionLog log = RevisionLog.open(config(0)))
        {
            revisions.readAll(log, 1);
        }
    }

    /**
     * A snapshot written while the disk fills (the engine takes them on a background thread) must
     * not take the space the journal needs: before, it wrote on into the journal's reserve, so the
     * journal's next claim failed and the engine refused every later write, for a snapshot it can
     * do without. Now the snapshot fails (deleting its temp file) while twice the reserve plus the
     * claim-ahead distance is still free, and the journal goes on appending.
     */
    @Test
    void aSnapshotThatWouldFillTheDiskFailsAndTheJournalGoesOnAppending() throws IOException
    {
        final long reserve = LogConfig.DEFAULT_DISK_RESERVE_BYTES;
        final LogConfig config = LogConfig.builder(tmpfs.log()).blockSize(1 << 20).durability(LogConfig.Durability.SYNC)
            .diskReserveBytes(reserve).claimAheadBytes(0).build();
        long revision = 0;
        try (RevisionLog log = RevisionLog.open(config))
        {
            for (int i = 0; i < 20; i++)
            {
                revisions.write(log, ++revision);
                log.flush();
            }
            final UnsafeBuffer key = new UnsafeBuffer(new byte[16]);
            final UnsafeBuffer value = new UnsafeBuffer(new byte[VALUE_BYTES]);
            boolean refused = false;
            try (SnapshotWriter snapshot = log.snapshotWriter(revision))
            {
                try
                {
                    for (int entry = 0; Files.getFileStore(tmpfs.mount()).getUsableSpace() > reserve / 2; entry++)
                    {
                        key.putInt(0, entry);
                        snapshot.append(key, 0, key.capacity(), value, 0, value.capacity(), 1, 1, 1, 0);
                    }
                }
                catch (final LogWriteException expected)
                {
                    refused = true;
                }
                // While the snapshot is still open, as the engine's journal thread appends meanwhile,
                // past what the log had claimed (1 MiB at a time).
                for (int i = 0; i < 80; i++)
                {
                    revisions.write(log, ++revision);
                    log.flush();
                }
            }
            assertTrue(refused, "the snapshot was refused");
            try (Stream<Path> files = Files.list(tmpfs.log().resolve(LogDirectory.SNAPSHOTS)))
            {
                assertEquals(0, files.count(), "the refused snapshot left no file");
            }
            revisions.readAll(log, revision);
        }
        try (RevisionLog log = RevisionLog.open(config))
        {
            revisions.readAll(log, revision);
        }
    }

    /**
     * The holder line is written into the lock file once the log is open; where that write fails
     * (here the lock file is bind-mounted from the full tmpfs, the log itself on a disk with room),
     * the open fails typed and releases everything it had opened: before, it released only the
     * lock and left the log open (its queue mapped, its disk-space thread running, the directory
     * unlocked under it), so a second open in the same JVM ran beside it.
     */
    @Test
    void anOpenWhoseLockFileCannotBeWrittenFailsTypedAndLeavesNothingOpen() throws IOException
    {
        final Path logDir = root.resolve("disk-log");
        final LogConfig config = LogConfig.builder(logDir).blockSize(1 << 20).build();
        try (RevisionLog log = RevisionLog.open(config))
        {
            revisions.write(log, 1);
        }
        final Path lockOnTmpfs = Files.createFile(tmpfs.mount().resolve("lock"));
        fillTmpfs();
        final Path lockFile = logDir.resolve(DirectoryLock.NAME);
        assumeTrue(Tmpfs.bind(lockOnTmpfs, lockFile), "cannot bind-mount a file here");
        try
        {
            assertThrows(LogWriteException.class, () -> RevisionLog.open(config, "lockfull"), "the holder line cannot be written");
            assertTrue(Thread.getAllStackTraces().keySet().stream().noneMatch(t -> t.getName().startsWith("lockfull")),
                "a thread of the failed open still runs");
        }
        finally
        {
            Tmpfs.unmount(lockFile);
        }
        try (RevisionLog log = RevisionLog.open(config))
        {
            revisions.readAll(log, 1);
            revisions.write(log, 2);
        }
    }

    private void fillTmpfs()
    {
        final byte[] block = new byte[4096];
        try (OutputStream out = Files.newOutputStream(tmpfs.mount().resolve("filler")))
        {
            while (true)
            {
                out.write(block);
            }
        }
        catch (final IOException full)
        {
            // The tmpfs is full.
        }
    }

    /**
     * The tmpfs fills while the log rolls to a new cycle file every few revisions (Chronicle maps
     * and writes each new file's header): the append that cannot be backed fails typed, whether it
     * rolls or not; every revision appended before it is there after a reopen with room, the log
     * verifies, and appends go on. With no reserve, at each of several roll periods.
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 7})
    void aTmpfsThatFillsAcrossCycleRollsLosesNoAppendedRevision(final int perCycle)
    {
        final long[] now = {1_700_000_000_000L};
        final LogConfig config = LogConfig.builder(tmpfs.log()).blockSize(1 << 20).durability(LogConfig.Durability.SYNC)
            .rollCycle(TestRollCycles.TEST_SECONDLY).clockMillis(() -> now[0]).diskReserveBytes(0).claimAheadBytes(0).build();
        long appended = 0;
        try (RevisionLog log = RevisionLog.open(config))
        {
            while (true)
            {
                if ((appended + 1) % perCycle == 0)
                {
                    now[0] += 1_000;
                }
                try
                {
                    revisions.write(log, appended + 1);
                    log.flush();
                }
                catch (final LogWriteException expected)
                {
                    assertEquals(appended, log.lastRevision());
                    break;
                }
                appended++;
                assertTrue(appended < 2_000, "an 8 MiB tmpfs never filled");
            }
            assertTrue(appended > 3, "filled after " + appended);
        }
        catch (final LogWriteException closeOnAFullDisk)
        {
            // The close could not clear the OPEN mark: the reopen treats the log as not closed cleanly.
        }
        assertTrue(Tmpfs.resize(tmpfs.mount(), 64), "remount with room");
        try (RevisionLog log = RevisionLog.open(config))
        {
            assertEquals(appended, log.lastRevision(), "every appended revision recovered");
            revisions.readAll(log, appended);
            assertTrue(log.verify().ok(), () -> log.verify().problem());
            now[0] += 1_000;
            revisions.write(log, appended + 1);
            log.flush();
            revisions.readAll(log, appended + 1);
        }
    }

    @Test
    void theDefaultReserveRefusesAppendsWhileTheTmpfsStillHasRoom() throws IOException
    {
        final long acknowledged;
        try (RevisionLog log = RevisionLog.open(config(LogConfig.DEFAULT_DISK_RESERVE_BYTES)))
        {
            acknowledged = fill(log);
            revisions.readAll(log, acknowledged);
        }
        assertTrue(Files.getFileStore(tmpfs.mount()).getUsableSpace() > 0, "the reserve kept room");
        assertTrue(Tmpfs.resize(tmpfs.mount(), 64));
        try (RevisionLog log = RevisionLog.open(config(LogConfig.DEFAULT_DISK_RESERVE_BYTES)))
        {
            revisions.readAll(log, acknowledged);
        }
    }
}
