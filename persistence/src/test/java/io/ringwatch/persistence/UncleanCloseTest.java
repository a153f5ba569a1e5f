package io.ringwatch.persistence;

import static io.ringwatch.engine.DirectoryTrees.copyTree;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;

import net.openhft.chronicle.queue.rollcycles.TestRollCycles;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The OPEN mark that tells a writable open whether the last writer closed the log cleanly, and the
 * SKIP excerpt an unclean reopen of an ASYNC log appends ({@link RevisionLog#skipTo}): readers,
 * seeks, verify, reopen and retention accept it. A kill -9 is simulated by copying the directory
 * while the log is open: the copy holds exactly the files a killed process leaves (the page cache
 * is shared), and its lock file is not locked.
 */
class UncleanCloseTest
{
    @TempDir
    Path dir;

    private final TestRevisions revisions = new TestRevisions();

    @Test
    void aNewLogAndACleanCloseAreClean()
    {
        try (RevisionLog log = RevisionLog.open(LogConfig.builder(dir).build()))
        {
            assertTrue(log.closedCleanly(), "a new log");
            revisions.write(log, 1);
        }
        try (RevisionLog log = RevisionLog.open(LogConfig.builder(dir).build()))
        {
            assertTrue(log.closedCleanly(), "after a clean close");
        }
    }

    @Test
    void aLogCopiedWhileOpenIsUncleanAndStaysUncleanUntilAWriterClosesItCleanly() throws IOException
    {
        final Path copy = dir.resolve("copy");
        try (RevisionLog log = RevisionLog.open(LogConfig.builder(dir.resolve("live")).build()))
        {
            revisions.write(log, 1);
            copyTree(dir.resolve("live"), copy);
        }
        try (RevisionLog readOnly = RevisionLog.openReadOnly(copy))
        {
            assertFalse(readOnly.closedCleanly(), "a read-only open reports the mark and changes nothing");
        }
        final Path second = dir.resolve("second");
        try (RevisionLog log = RevisionLog.open(LogConfig.builder(copy).build()))
        {
            assertFalse(log.closedCleanly(), "killed while open");
            assertEquals(1, log.lastRevision());
            copyTree(copy, second);
        }
        try (RevisionLog log = RevisionLog.open(LogConfig.builder(second).build()))
        {
            assertFalse(log.closedCleanly(), "killed again: the mark is set at every open");
        }
        try (RevisionLog log = RevisionLog.open(LogConfig.builder(copy).build()))
        {
            assertTrue(log.closedCleanly(), "the reopened copy was closed cleanly");
        }
    }

    @Test
    void aCloseAfterAFailedAppendLeavesTheMark()
    {
        final FaultyDiskSpace space = new FaultyDiskSpace(4L << 20);
        final LogConfig full = LogConfig.builder(dir).blockSize(1 << 20).diskSpace(space).diskReserveBytes(0).build();
        final BigRevisions big = new BigRevisions(16 * 1024);
        try (RevisionLog log = RevisionLog.open(full))
        {
            assertThrows(LogWriteException.class, () ->
            {
                for (long revision = 1; revision < 10_000; revision++)
                {
                    big.write(log, revision);
                }
            });
        }
        try (RevisionLog log = RevisionLog.open(LogConfig.builder(dir).blockSize(1 << 20).build()))
        {
            assertFalse(log.closedCleanly(), "watchers of an ASYNC engine may have seen the failed revisions");
        }
    }

    @Test
    void aSkipIsSteppedOverBySeeksReadsVerifyAndReopens()
    {
        try (RevisionLog log = RevisionLog.open(LogConfig.builder(dir).build()))
        {
            for (long r = 1; r <= 5; r++)
            {
                revisions.write(log, r);
            }
            log.skipTo(100);
            assertEquals(100, log.lastRevision());
            assertEquals(100, log.compactRevision(), "everything before the skip's end is compacted");
            assertThrows(IllegalArgumentException.class, () -> revisions.write(log, 6), "no revision inside the skip");
            for (long r = 101; r <= 103; r++)
            {
                revisions.write(log, r);
            }
            checkSkippedLog(log);
        }
        try (RevisionLog log = RevisionLog.openReadOnly(dir))
        {
            checkSkippedLog(log);
        }
    }

    @Test
    void aSkipAtTheEndOrStartOfTheLogAndSkipsInARowAccountForEveryRevision()
    {
        try (RevisionLog log = RevisionLog.open(LogConfig.builder(dir).build()))
        {
            log.skipTo(10);
            assertEquals(1, log.firstRevision(), "an empty log skipped from 1");
            assertEquals(10, log.lastRevision());
            assertSeekReads(log, 1, 0);
            log.skipTo(20);
            assertEquals(20, log.lastRevision());
            final VerifyReport report = log.verify();
            assertTrue(report.ok(), report::problem);
            assertEquals(1, report.firstRevision());
            assertEquals(20, report.lastRevision());
            assertEquals(0, report.revisions());
            revisions.write(log, 21);
            assertSeekReads(log, 15, 21);
            assertSeekReads(log, 5, 21);
        }
        try (RevisionLog log = RevisionLog.open(LogConfig.builder(dir).build()))
        {
            assertEquals(1, log.firstRevision());
            assertEquals(21, log.lastRevision());
            assertTrue(log.verify().ok(), () -> log.verify().problem());
        }
    }

    @Test
    void aSkipFirstInItsCycleFileIsFoundAndRetentionKeepsTheLogRecoverable()
    {
        final long[] now = {1_000};
        final LogConfig config = LogConfig.builder(dir).rollCycle(TestRollCycles.TEST_SECONDLY)
            .clockMillis(() -> now[0]).blockSize(1 << 20).retention(RetentionPolicy.keepAll().keepRevisions(1)).build();
        try (RevisionLog log = RevisionLog.open(config))
        {
            for (long r = 1; r <= 5; r++)
            {
                revisions.write(log, r);
            }
            now[0] += 1_000;
            log.skipTo(50);
            now[0] += 1_000;
            revisions.write(log, 51);
            assertSeekReads(log, 6, 51);
            assertSeekReads(log, 50, 51);
            assertSeekReads(log, 3, 3);
            assertTrue(log.verify().ok(), () -> log.verify().problem());
            try (SnapshotWriter snapshot = log.snapshotWriter(51))
            {
                snapshot.commit();
            }
            now[0] += 1_000;
            revisions.write(log, 52);
            log.enforceRetention();
            assertEquals(6, log.firstRevision(), "retention dropped the file before the skip, which now starts the log");
            assertTrue(log.verify().ok(), () -> log.verify().problem());
            assertSeekReads(log, 6, 51);
        }
    }

    private void checkSkippedLog(final RevisionLog log)
    {
        assertEquals(1, log.firstRevision());
        assertEquals(103, log.lastRevision());
        assertSeekReads(log, 3, 3);
        assertSeekReads(log, 6, 101);
        assertSeekReads(log, 50, 101);
        assertSeekReads(log, 100, 101);
        assertSeekReads(log, 102, 102);
        try (LogReader reader = log.reader())
        {
            final RevisionRecord record = new RevisionRecord();
            for (final long expected : new long[] {1, 2, 3, 4, 5, 101, 102, 103})
            {
                assertTrue(reader.next(record));
                assertEquals(expected, record.revision());
            }
            assertFalse(reader.next(record));
            assertEquals(100, reader.skippedTo());
            assertEquals(6, reader.skippedFrom());
        }
        final VerifyReport report = log.verify();
        assertTrue(report.ok(), report::problem);
        assertEquals(1, report.firstRevision());
        assertEquals(103, report.lastRevision());
        assertEquals(8, report.revisions());
    }

    /** Seeks {@code revision} and checks the next revision read (0: none yet). */
    private static void assertSeekReads(final RevisionLog log, final long revision, final long expected)
    {
        try (LogReader reader = log.reader())
        {
            assertTrue(reader.seek(revision), "seek " + revision);
            final RevisionRecord record = new RevisionRecord();
            if (expected == 0)
            {
                assertFalse(reader.next(record), "seek " + revision + " then read");
                return;
            }
            assertTrue(reader.next(record), "seek " + revision + " then read");
            assertEquals(expected, record.revision(), "seek " + revision + " then read");
        }
    }
}
