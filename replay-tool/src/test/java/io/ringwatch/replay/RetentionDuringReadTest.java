package io.ringwatch.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import io.ringwatch.persistence.ChangeType;
import io.ringwatch.persistence.LogConfig;
import io.ringwatch.persistence.RetentionPolicy;
import io.ringwatch.persistence.RevisionLog;
import io.ringwatch.persistence.SnapshotWriter;
import net.openhft.chronicle.queue.rollcycles.TestRollCycles;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tool reads a live log whose writer's retention deletes the files the walk is in and the ones
 * after it: the walk stops with "out of the log's reach" (exit code 4) naming retention, after
 * handing over only contiguous revisions, instead of reporting the log corrupt; likewise for a
 * revision deleted before the walk reached it, and a snapshot deleted after verify listed it. A
 * cycle file missing from the middle of the log is still corruption.
 */
class RetentionDuringReadTest
{
    private static final int PER_CYCLE = 20;

    @TempDir
    Path dir;

    private final AtomicLong now = new AtomicLong(1_700_000_000_000L);

    @Test
    void aWalkWhoseFilesTheWritersRetentionDeletesStopsAsOutOfReachNotCorrupt()
    {
        final AtomicLong now = new AtomicLong(1_700_000_000_000L);
        final LogConfig config = LogConfig.builder(dir).rollCycle(TestRollCycles.TEST_SECONDLY).clockMillis(now::get)
            .blockSize(1 << 20).retention(RetentionPolicy.keepAll().keepRevisions(1)).build();
        try (RevisionLog writer = RevisionLog.open(config))
        {
            for (long r = 1; r <= 5 * PER_CYCLE; r++)
            {
                if (r % PER_CYCLE == 0)
                {
                    now.addAndGet(1_000);
                }
                put(writer, r);
            }
            final long last = writer.lastRevision();
            final List<Long> read = new ArrayList<>();
            try (SourceLog source = SourceLog.open(dir))
            {
                final RevisionOutOfRangeException gone = assertThrows(RevisionOutOfRangeException.class,
                    () -> source.read(new RevisionSpan(1, last), record ->
                    {
                        read.add(record.revision());
                        if (record.revision() == 1)
                        {
                            trim(writer, last);
                        }
                    }, Progress.none()));
                assertEquals(ExitCodes.BAD_REVISION, gone.exitCode());
                assertTrue(gone.getMessage().contains("retention"), gone.getMessage());
            }
            for (int i = 0; i < read.size(); i++)
            {
                assertEquals(i + 1, read.get(i), "contiguous from 1");
            }
            assertEquals(PER_CYCLE - 1, read.size(), "the walk finished the file it was in");
        }
    }

    /**
     * The writer's retention deletes the span's first revision after the open and before the walk
     * seeks it: out of reach (exit 4), not "cannot be found although the log reports" (corrupt).
     */
    @Test
    void aRevisionTheWritersRetentionDeletedBeforeTheWalkReachedItIsOutOfReachNotCorrupt()
    {
        try (RevisionLog writer = RevisionLog.open(config()))
        {
            writeCycles(writer);
            final long last = writer.lastRevision();
            try (SourceLog source = SourceLog.open(dir))
            {
                trim(writer, last);
                final RevisionOutOfRangeException gone = assertThrows(RevisionOutOfRangeException.class,
                    () -> source.read(new RevisionSpan(1, last), record -> { }, Progress.none()));
                assertEquals(ExitCodes.BAD_REVISION, gone.exitCode());
                assertTrue(gone.getMessage().contains("retention"), gone.getMessage());
            }
        }
    }

    /**
     * A cycle file missing from the middle of a closed log (nobody's retention: the files before it
     * are still there) is corruption (exit 1), not "the log's writer deleted revisions" (exit 4).
     */
    @Test
    void aCycleFileMissingFromTheMiddleOfAClosedLogIsCorruptNotOutOfReach() throws IOException
    {
        try (RevisionLog writer = RevisionLog.open(config()))
        {
            writeCycles(writer);
        }
        final List<Path> files;
        try (Stream<Path> list = Files.list(dir.resolve("queue")))
        {
            files = list.filter(f -> f.toString().endsWith(".cq4")).sorted().toList();
        }
        Files.delete(files.get(2));

        final HistoryFixture.Run verify = HistoryFixture.run("verify", dir.toString());
        final HistoryFixture.Run print = HistoryFixture.run("print", dir.toString(), "--from", "30", "--to", "70");

        assertEquals(ExitCodes.CORRUPT, verify.exitCode(), verify.err());
        assertTrue(verify.err().contains("revision " + 2 * PER_CYCLE + " is missing"), verify.err());
        // The range, as the engine's refused open (LogGapException) and a watcher's HISTORY_LOST name it.
        assertTrue(verify.err().contains(2 * PER_CYCLE + ".." + (3 * PER_CYCLE - 1)), verify.err());
        assertEquals(ExitCodes.CORRUPT, print.exitCode(), print.err());
        assertEquals(2 * PER_CYCLE - 30, print.lines().size(), "revisions 30..39 before the gap: " + print.out());
    }

    /**
     * A log whose writer was killed during retention, after deleting the oldest files and before
     * refreshing Chronicle's listing of them, is read from the first file left (before: every command
     * refused it as corrupt, exit 1, until an engine had opened it for writing).
     */
    @Test
    void aLogWhoseRetentionWasKilledMidDeletionIsReadFromTheFirstFileLeft() throws IOException
    {
        try (RevisionLog writer = RevisionLog.open(config()))
        {
            writeCycles(writer);
            writer.compact(writer.lastRevision());
            try (SnapshotWriter snapshot = writer.snapshotWriter(writer.lastRevision()))
            {
                snapshot.commit();
            }
        }
        final List<Path> files;
        try (Stream<Path> list = Files.list(dir.resolve("queue")))
        {
            files = list.filter(f -> f.toString().endsWith(".cq4")).sorted().toList();
        }
        Files.delete(files.get(0));
        Files.delete(files.get(1));

        final HistoryFixture.Run verify = HistoryFixture.run("verify", dir.toString());
        final HistoryFixture.Run list = HistoryFixture.run("list", dir.toString(), "--format", "json");
        final HistoryFixture.Run print = HistoryFixture.run("print", dir.toString(), "--to", "45");

        assertEquals(ExitCodes.OK, verify.exitCode(), verify.err());
        assertTrue(verify.out().startsWith("OK: revisions " + 2 * PER_CYCLE + ".." + 5 * PER_CYCLE), verify.out());
        assertEquals(ExitCodes.OK, list.exitCode(), list.err());
        assertTrue(list.out().contains("\"firstRevision\":" + 2 * PER_CYCLE), list.out());
        assertEquals(ExitCodes.OK, print.exitCode(), print.err());
        assertEquals(45 - 2 * PER_CYCLE + 1, print.lines().size(), print.out());
    }

    /**
     * A snapshot listed by {@code verify} and deleted by the writer before verify read it (a newer one
     * superseded it) is reported as deleted meanwhile, not as a bad snapshot (exit 1).
     */
    @Test
    void aSnapshotTheWriterDeletedAfterVerifyListedItIsNotAProblem()
    {
        assertFalse(VerifyCommand.checkSnapshot(dir, 42), "no such snapshot file: gone, not corrupt");
    }

    private LogConfig config()
    {
        return LogConfig.builder(dir).rollCycle(TestRollCycles.TEST_SECONDLY).clockMillis(now::get)
            .blockSize(1 << 20).retention(RetentionPolicy.keepAll().keepRevisions(1)).build();
    }

    private void writeCycles(final RevisionLog writer)
    {
        for (long r = 1; r <= 5 * PER_CYCLE; r++)
        {
            if (r % PER_CYCLE == 0)
            {
                now.addAndGet(1_000);
            }
            put(writer, r);
        }
    }

    /** What the engine does: compact, snapshot, then retention deletes every file but the newest. */
    private static void trim(final RevisionLog writer, final long last)
    {
        writer.compact(last);
        try (SnapshotWriter snapshot = writer.snapshotWriter(last))
        {
            snapshot.commit();
        }
        assertTrue(writer.enforceRetention() > 1);
    }

    private static void put(final RevisionLog log, final long revision)
    {
        final UnsafeBuffer key = new UnsafeBuffer(("/k" + revision).getBytes(StandardCharsets.UTF_8));
        final UnsafeBuffer value = new UnsafeBuffer(("v" + revision).getBytes(StandardCharsets.UTF_8));
        log.beginRevision(revision, revision * 1_000_000L);
        log.appendChange(ChangeType.PUT, key, 0, key.capacity(), value, 0, value.capacity(), revision, revision, 1,
            null, 0, 0, 0, 0, 0);
        log.endRevision();
    }
}
