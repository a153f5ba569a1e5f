package io.ringwatch.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import net.openhft.chronicle.queue.rollcycles.TestRollCycles;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link RevisionLog#verify()} on a live log whose writer's retention deletes the files ahead of the
 * walk: the walk goes on at the first file left and reports the revisions it could not reach as
 * trimmed, not as a problem (before: "revision 20 is no longer in the log", a failed verify of a
 * sound log). A cycle file missing from the middle of a closed log is still a problem, named as a
 * missing revision rather than blamed on retention.
 */
class VerifyDuringRetentionTest
{
    private static final int PER_CYCLE = 20;

    @TempDir
    Path dir;

    private final long[] now = {1_700_000_000_000L};
    private final TestRevisions revisions = new TestRevisions();

    private LogConfig config()
    {
        return LogConfig.builder(dir).rollCycle(TestRollCycles.TEST_SECONDLY).clockMillis(() -> now[0])
            .blockSize(1 << 20).retention(RetentionPolicy.keepAll().keepRevisions(1)).build();
    }

    private void writeCycles(final RevisionLog log, final int cycles)
    {
        for (int i = 0; i < cycles * PER_CYCLE; i++)
        {
            final long revision = log.lastRevision() + 1;
            if (revision % PER_CYCLE == 0)
            {
                now[0] += 1_000;
            }
            revisions.write(log, revision);
        }
    }

    @Test
    void aVerifyWhoseFilesRetentionDeletesGoesOnAtTheFirstFileLeftAndCountsTheRestAsTrimmed()
    {
        try (RevisionLog writer = RevisionLog.open(config()))
        {
            writeCycles(writer, 5);
            final long last = writer.lastRevision();
            try (RevisionLog reader = RevisionLog.openReadOnly(dir))
            {
                final VerifyReport report = reader.verify(revision ->
                {
                    if (revision == 1)
                    {
                        writer.compact(last);
                        try (SnapshotWriter snapshot = writer.snapshotWriter(last))
                        {
                            snapshot.commit();
                        }
                        assertTrue(writer.enforceRetention() > 1, "the walk's file and the ones after it are deleted");
                    }
                });
                assertNull(report.problem(), report::toString);
                assertTrue(report.ok());
                final long firstLeft = writer.firstRevision();
                assertTrue(firstLeft > PER_CYCLE, "retention deleted the files after the walk's: " + firstLeft);
                assertEquals(1, report.firstRevision());
                assertEquals(last, report.lastRevision());
                assertEquals(firstLeft - PER_CYCLE, report.trimmed(), "revisions " + PER_CYCLE + ".." + (firstLeft - 1));
                assertEquals(PER_CYCLE - 1 + last - firstLeft + 1, report.revisions(), "the first file and every one left");
            }
        }
    }

    @Test
    void aCycleFileMissingFromTheMiddleIsAProblemNotATrim() throws IOException
    {
        try (RevisionLog writer = RevisionLog.open(config()))
        {
            writeCycles(writer, 5);
        }
        final List<Path> files;
        try (Stream<Path> list = Files.list(dir.resolve(LogDirectory.QUEUE)))
        {
            files = list.filter(f -> f.toString().endsWith(".cq4")).sorted().toList();
        }
        Files.delete(files.get(2));
        try (RevisionLog reader = RevisionLog.openReadOnly(dir))
        {
            final VerifyReport report = reader.verify();
            assertFalse(report.ok());
            assertEquals(0, report.trimmed());
            assertTrue(report.problem().contains("revision " + (2 * PER_CYCLE) + " is missing"), report.problem());
            assertFalse(report.problem().contains("retention"), report.problem());
            assertEquals(2 * PER_CYCLE - 1, report.lastRevision());
        }
    }
}
