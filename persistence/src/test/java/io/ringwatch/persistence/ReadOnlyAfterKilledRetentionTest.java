package io.ringwatch.persistence;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
 * A kill during retention's deletions, before Chronicle's directory listing (in
 * {@code metadata.cq4t}) was refreshed, leaves a listing that names a first cycle file that is gone.
 * A read-only open (the replay tool, which takes no lock and changes nothing) reads the log from the
 * first file left, as the writable open does, and changes no byte (before: refused as corrupt,
 * {@code MissingStoreFileException}, until a writable open had repaired the listing).
 */
class ReadOnlyAfterKilledRetentionTest
{
    private static final int PER_CYCLE = 20;

    @TempDir
    Path dir;

    private final long[] now = {1_700_000_000_000L};
    private final TestRevisions revisions = new TestRevisions();

    @Test
    void aReadOnlyOpenReadsTheLogFromTheFirstFileLeftAndChangesNothing() throws IOException
    {
        final LogConfig config = LogConfig.builder(dir).rollCycle(TestRollCycles.TEST_SECONDLY).clockMillis(() -> now[0])
            .blockSize(1 << 20).retention(RetentionPolicy.keepAll().keepRevisions(1)).build();
        try (RevisionLog log = RevisionLog.open(config))
        {
            for (int i = 0; i < 5 * PER_CYCLE; i++)
            {
                final long revision = log.lastRevision() + 1;
                if (revision % PER_CYCLE == 0)
                {
                    now[0] += 1_000;
                }
                revisions.write(log, revision);
            }
            log.compact(log.lastRevision());
            try (SnapshotWriter snapshot = log.snapshotWriter(log.lastRevision()))
            {
                snapshot.commit();
            }
        }
        final List<Path> cycleFiles;
        try (Stream<Path> files = Files.list(dir.resolve(LogDirectory.QUEUE)))
        {
            cycleFiles = files.filter(f -> f.toString().endsWith(".cq4")).sorted().toList();
        }
        // What the killed retention got done: the two oldest files, not the listing's refresh.
        Files.delete(cycleFiles.get(0));
        Files.delete(cycleFiles.get(1));
        final byte[] listing = Files.readAllBytes(dir.resolve(LogDirectory.QUEUE).resolve("metadata.cq4t"));
        final byte[] metadata = Files.readAllBytes(dir.resolve("ringwatch.meta"));

        try (RevisionLog log = RevisionLog.openReadOnly(dir))
        {
            assertEquals(2 * PER_CYCLE, log.firstRevision());
            assertEquals(5 * PER_CYCLE, log.lastRevision());
            RevisionLogTest.readAll(log, log.firstRevision(), log.lastRevision());
            final VerifyReport report = log.verify();
            assertTrue(report.ok(), report::toString);
            assertEquals(2 * PER_CYCLE, report.firstRevision());
            assertEquals(5 * PER_CYCLE - 2 * PER_CYCLE + 1, report.revisions());
            try (LogReader reader = log.reader())
            {
                assertFalse(reader.seek(PER_CYCLE));
                assertTrue(reader.seek(3 * PER_CYCLE));
                final RevisionRecord record = new RevisionRecord();
                assertTrue(reader.next(record));
                TestRevisions.check(record, 3 * PER_CYCLE);
            }
        }
        assertArrayEquals(listing, Files.readAllBytes(dir.resolve(LogDirectory.QUEUE).resolve("metadata.cq4t")),
            "the read-only open left Chronicle's listing as it was");
        assertArrayEquals(metadata, Files.readAllBytes(dir.resolve("ringwatch.meta")));
    }
}
