package io.ringwatch.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;

import io.ringwatch.engine.spi.HistoryReader;
import io.ringwatch.ringbuffer.EventRecord;
import net.openhft.chronicle.queue.rollcycles.TestRollCycles;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RetentionTest
{
    private static final int PER_CYCLE = 20;

    @TempDir
    Path dir;

    private final long[] now = {1_700_000_000_000L};
    private final TestRevisions revisions = new TestRevisions();

    private LogConfig config(final RetentionPolicy policy)
    {
        return LogConfig.builder(dir).rollCycle(TestRollCycles.TEST_SECONDLY).clockMillis(() -> now[0])
            .blockSize(1 << 20).retention(policy).build();
    }

    /** Writes one revision, moving the clock to the next second every PER_CYCLE revisions. */
    private void writeNext(final RevisionLog log)
    {
        final long revision = log.lastRevision() + 1;
        if (revision % PER_CYCLE == 0)
        {
            now[0] += 1_000;
        }
        revisions.write(log, revision);
    }

    private long queueFiles()
    {
        try (Stream<Path> files = Files.list(dir.resolve(LogDirectory.QUEUE)))
        {
            return files.filter(f -> f.toString().endsWith(".cq4")).count();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    @Test
    void diskUseStaysBoundedUnderSteadyWritesWithCompactionAndSnapshots()
    {
        try (RevisionLog log = RevisionLog.open(config(RetentionPolicy.keepAll().keepRevisions(3 * PER_CYCLE))))
        {
            long maxFiles = 0;
            for (int i = 0; i < 40 * PER_CYCLE; i++)
            {
                writeNext(log);
                if (log.lastRevision() % (2 * PER_CYCLE) == 0)
                {
                    // What the engine does: compact old history and take a snapshot now and then.
                    log.compact(log.lastRevision() - PER_CYCLE);
                    try (SnapshotWriter snapshot = log.snapshotWriter(log.lastRevision()))
                    {
                        snapshot.commit();
                    }
                }
                maxFiles = Math.max(maxFiles, queueFiles());
            }
            assertTrue(maxFiles <= 8, "files were not bounded: " + maxFiles);
            assertTrue(log.firstRevision() > 20 * PER_CYCLE, "old files were not deleted: first " + log.firstRevision());
            RevisionLogTest.readAll(log, log.firstRevision(), log.lastRevision());
            try (LogReader reader = log.reader())
            {
                assertFalse(reader.seek(1), "revision 1 was deleted");
                assertTrue(reader.seek(log.firstRevision()));
            }
            assertTrue(log.verify().ok(), () -> log.verify().problem());
        }
    }

    @Test
    void nothingIsDeletedWithoutASnapshotOrBelowRetainFrom()
    {
        try (RevisionLog log = RevisionLog.open(config(RetentionPolicy.keepAll().keepRevisions(PER_CYCLE)
            .maxAge(Duration.ofSeconds(1)).maxBytes(1))))
        {
            for (int i = 0; i < 10 * PER_CYCLE; i++)
            {
                writeNext(log);
            }
            log.compact(log.lastRevision());
            assertEquals(0, log.enforceRetention(), "no snapshot: recovery needs the whole log");
            assertEquals(1, log.firstRevision());

            try (SnapshotWriter snapshot = log.snapshotWriter(log.lastRevision()))
            {
                snapshot.commit();
            }
            log.retainFrom(3 * PER_CYCLE + 1);
            final long filesBefore = queueFiles();
            final int deleted = log.enforceRetention();
            assertTrue(deleted > 0);
            assertEquals(filesBefore - deleted, queueFiles());
            assertTrue(log.firstRevision() <= 3 * PER_CYCLE + 1, "retainFrom was not honoured: " + log.firstRevision());
            RevisionLogTest.readAll(log, log.firstRevision(), log.lastRevision());

            log.retainFrom(Long.MAX_VALUE);
            log.enforceRetention();
            assertEquals(1, queueFiles(), "the cycle being written is never deleted");
        }
    }

    /**
     * A reader inside a file that retention deletes finishes it (its mapping stays), and when it goes
     * on finds the next files deleted too: Chronicle's
     * tailer moves to the next file that exists, which holds later revisions. The reader must report
     * that the revisions after its file are gone (typed), never hand out a later revision as the next
     * one: a watcher or a read at a past revision would silently miss every revision in between.
     */
    @Test
    void aReaderThatLeavesADeletedFileIsToldTheNextRevisionsAreGoneInsteadOfSkippingThem()
    {
        try (RevisionLog log = RevisionLog.open(config(RetentionPolicy.keepAll().keepRevisions(1))))
        {
            for (int i = 0; i < 5 * PER_CYCLE; i++)
            {
                writeNext(log);
            }
            try (LogReader reader = log.reader())
            {
                final RevisionRecord record = new RevisionRecord();
                assertTrue(reader.next(record));
                TestRevisions.check(record, 1);
                log.compact(log.lastRevision());
                try (SnapshotWriter snapshot = log.snapshotWriter(log.lastRevision()))
                {
                    snapshot.commit();
                }
                assertTrue(log.enforceRetention() > 1, "the reader's file and the one after it are deleted");
                for (long r = 2; r < PER_CYCLE; r++)
                {
                    assertTrue(reader.next(record));
                    TestRevisions.check(record, r);
                }
                final LogCompactedException gone = assertThrows(LogCompactedException.class, () -> reader.next(record),
                    "revision " + PER_CYCLE + " is no longer in the log");
                assertEquals(PER_CYCLE, gone.revision());
            }
        }
    }
    /**
     * The engine's history over the log: a catching-up watcher or a read at a past revision whose
     * reader leaves a deleted file fails as the engine's histories fail for revisions they no longer
     * hold (a read at a past revision then reports COMPACTED), instead of going on at a later revision.
     */
    @Test
    void theEnginesHistoryReaderFailsInsteadOfSkippingRevisionsRetentionDeletedUnderIt()
    {
        try (ChronicleJournal journal = ChronicleJournal.open(config(RetentionPolicy.keepAll().keepRevisions(1)), "retention"))
        {
            final RevisionLog log = journal.log();
            for (int i = 0; i < 5 * PER_CYCLE; i++)
            {
                writeNext(log);
            }
            try (HistoryReader reader = journal.newReader())
            {
                assertTrue(reader.seek(1));
                final EventRecord change = new EventRecord();
                for (int i = 0; i < TestRevisions.changes(1); i++)
                {
                    assertTrue(reader.next(change));
                    assertEquals(1, change.revision());
                }
                log.compact(log.lastRevision());
                try (SnapshotWriter snapshot = log.snapshotWriter(log.lastRevision()))
                {
                    snapshot.commit();
                }
                assertTrue(log.enforceRetention() > 1);
                long last = 1;
                try
                {
                    while (reader.next(change))
                    {
                        assertTrue(change.revision() == last || change.revision() == last + 1,
                            "revision " + change.revision() + " after " + last);
                        last = change.revision();
                    }
                    throw new AssertionError("the reader ended at " + last + " instead of failing");
                }
                catch (final IllegalStateException expected)
                {
                    assertEquals(PER_CYCLE - 1, last, "every revision of the reader's own file was read");
                    assertTrue(expected.getCause() instanceof LogCompactedException, expected.toString());
                }
            }
        }
    }
    /**
     * A kill during retention's deletions leaves the oldest files deleted and the rest in place,
     * while Chronicle's directory listing in metadata.cq4t may still name the deleted cycles (here:
     * the files are deleted under a closed log, the worst case). The reopened log starts at the
     * first revision it still holds, reads every revision after it in order, and verifies sound.
     */
    @Test
    void aLogWhoseOldestFilesWentUnderAKilledRetentionReopensFromTheFirstFileLeft() throws IOException
    {
        final LogConfig config = config(RetentionPolicy.keepAll().keepRevisions(1));
        try (RevisionLog log = RevisionLog.open(config))
        {
            for (int i = 0; i < 5 * PER_CYCLE; i++)
            {
                writeNext(log);
            }
            log.compact(log.lastRevision());
            try (SnapshotWriter snapshot = log.snapshotWriter(log.lastRevision()))
            {
                snapshot.commit();
            }
        }
        try (Stream<Path> files = Files.list(dir.resolve(LogDirectory.QUEUE)))
        {
            files.filter(f -> f.toString().endsWith(".cq4")).sorted().limit(2).forEach(f ->
            {
                try
                {
                    Files.delete(f);
                }
                catch (final IOException ex)
                {
                    throw new UncheckedIOException(ex);
                }
            });
        }
        try (RevisionLog log = RevisionLog.open(config))
        {
            assertEquals(2 * PER_CYCLE, log.firstRevision());
            assertEquals(5 * PER_CYCLE, log.lastRevision());
            RevisionLogTest.readAll(log, log.firstRevision(), log.lastRevision());
            assertTrue(log.verify().ok(), () -> log.verify().problem());
            try (LogReader reader = log.reader())
            {
                assertFalse(reader.seek(PER_CYCLE));
                assertTrue(reader.seek(3 * PER_CYCLE));
                final RevisionRecord record = new RevisionRecord();
                assertTrue(reader.next(record));
                TestRevisions.check(record, 3 * PER_CYCLE);
            }
            writeNext(log);
        }
    }
}
