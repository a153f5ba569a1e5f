package io.ringwatch.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;

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

    @Test
    void aReaderInsideADeletedFileFinishesIt()
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
                assertTrue(log.enforceRetention() > 0);
                for (long r = 2; r < PER_CYCLE; r++)
                {
                    assertTrue(reader.next(record));
                    TestRevisions.check(record, r);
                }
            }
        }
    }
}
