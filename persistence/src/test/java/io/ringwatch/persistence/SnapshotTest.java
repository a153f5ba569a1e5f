package io.ringwatch.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SnapshotTest
{
    @TempDir
    Path dir;

    private final TestRevisions revisions = new TestRevisions();
    private final UnsafeBuffer key = new UnsafeBuffer(new byte[32]);
    private final UnsafeBuffer value = new UnsafeBuffer(new byte[70_000]);

    private RevisionLog logWith(final long last)
    {
        final RevisionLog log = RevisionLog.open(LogConfig.builder(dir).blockSize(1 << 20).snapshotsToKeep(2).build());
        for (long r = log.lastRevision() + 1; r <= last; r++)
        {
            revisions.write(log, r);
        }
        return log;
    }

    private void writeSnapshot(final RevisionLog log, final long revision, final int entries)
    {
        try (SnapshotWriter writer = log.snapshotWriter(revision))
        {
            for (int i = 0; i < entries; i++)
            {
                key.putInt(0, i);
                value.setMemory(0, valueLength(i), (byte)i);
                writer.append(key, 0, 4 + i % 20, value, 0, valueLength(i), i, i + revision, i % 7);
            }
            writer.commit();
        }
    }

    private static int valueLength(final int i)
    {
        return i == 3 ? 70_000 : i % 50;
    }

    @Test
    void entriesRoundTripAndTheNewestSnapshotIsRecorded()
    {
        try (RevisionLog log = logWith(10))
        {
            assertNull(log.openLatestSnapshot());
            writeSnapshot(log, 10, 5_000);
            assertEquals(10, log.snapshotRevision());
            try (SnapshotReader reader = log.openLatestSnapshot())
            {
                assertEquals(10, reader.snapshotRevision());
                assertEquals(5_000, reader.entryCount());
                final SnapshotEntry entry = new SnapshotEntry();
                for (int i = 0; i < 5_000; i++)
                {
                    assertTrue(reader.next(entry), "entry " + i);
                    assertEquals(4 + i % 20, entry.keyLength());
                    assertEquals(i, entry.buffer().getInt(0));
                    assertEquals(valueLength(i), entry.valueLength());
                    if (entry.valueLength() > 0)
                    {
                        assertEquals((byte)i, entry.buffer().getByte(entry.valueOffset() + entry.valueLength() - 1));
                    }
                    assertEquals(i, entry.createRevision());
                    assertEquals(i + 10, entry.modRevision());
                    assertEquals(i % 7, entry.version());
                }
                assertFalse(reader.next(entry));
            }
        }
        try (RevisionLog log = logWith(10))
        {
            assertEquals(10, log.snapshotRevision(), "recorded in the metadata file");
        }
    }

    @Test
    void onlyTheNewestSnapshotsAreKeptAndAnAbandonedOneLeavesNoFile() throws IOException
    {
        try (RevisionLog log = logWith(30))
        {
            writeSnapshot(log, 10, 10);
            writeSnapshot(log, 20, 10);
            writeSnapshot(log, 30, 10);
            assertEquals(List.of(30L, 20L), SnapshotFiles.revisions(dir.resolve(LogDirectory.SNAPSHOTS)));
            revisions.write(log, 31);
            try (SnapshotWriter writer = log.snapshotWriter(31))
            {
                writer.append(key, 0, 4, value, 0, 4, 1, 1, 1);
            }
            try (Stream<Path> files = Files.list(dir.resolve(LogDirectory.SNAPSHOTS)))
            {
                assertEquals(2, files.count());
            }
            assertEquals(30, log.snapshotRevision());
            assertThrows(IllegalArgumentException.class, () -> log.snapshotWriter(30), "not newer");
            assertThrows(IllegalArgumentException.class, () -> log.snapshotWriter(99), "beyond the log");
        }
    }

    @Test
    void aTempFileLeftByAKilledSnapshotIsDeletedAtTheNextCommitAndANewerOneIsLeft() throws IOException
    {
        final Path snapshots = dir.resolve(LogDirectory.SNAPSHOTS);
        try (RevisionLog log = logWith(20))
        {
            writeSnapshot(log, 10, 10);
        }
        // What a kill -9 during the snapshots of revisions 15 and 40 leaves behind; the latter's
        // revision is not in the log yet, as a snapshot can only be older than the log.
        Files.write(SnapshotFiles.temp(snapshots, 15), new byte[4096]);
        Files.write(SnapshotFiles.temp(snapshots, 40), new byte[16]);
        try (RevisionLog log = logWith(20))
        {
            assertTrue(Files.exists(SnapshotFiles.temp(snapshots, 15)), "an open changes nothing it need not");
            writeSnapshot(log, 20, 10);
            assertFalse(Files.exists(SnapshotFiles.temp(snapshots, 15)), "older than the committed snapshot: deleted");
            assertTrue(Files.exists(SnapshotFiles.temp(snapshots, 40)), "newer: left to its writer");
            assertEquals(List.of(20L, 10L), SnapshotFiles.revisions(snapshots));
        }
    }

    @Test
    void aCorruptSnapshotIsRefusedBeforeAnyEntry()
    {
        try (RevisionLog log = logWith(5))
        {
            writeSnapshot(log, 5, 100);
        }
        final Path file = SnapshotFiles.committed(dir.resolve(LogDirectory.SNAPSHOTS), 5);
        QueueFiles.flipByte(file, 500);
        assertThrows(SnapshotCorruptedException.class, () -> SnapshotReader.open(file));
        QueueFiles.flipByte(file, 500);
        QueueFiles.write(file, 4, QueueFiles.intLittleEndian(SnapshotFormat.FORMAT_VERSION + 1));
        assertThrows(LogFormatException.class, () -> SnapshotReader.open(file));
    }
}
