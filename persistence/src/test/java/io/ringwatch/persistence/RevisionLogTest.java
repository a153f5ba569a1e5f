package io.ringwatch.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RevisionLogTest
{
    @TempDir
    Path dir;

    private final TestRevisions revisions = new TestRevisions();

    @Test
    void everyFieldRoundTripsAndSurvivesReopen()
    {
        try (RevisionLog log = RevisionLog.open(LogConfig.builder(dir).build()))
        {
            assertEquals(0, log.lastRevision());
            for (long r = 1; r <= 200; r++)
            {
                revisions.write(log, r);
            }
            assertEquals(1, log.firstRevision());
            assertEquals(200, log.lastRevision());
            readAll(log, 1, 200);
        }
        try (RevisionLog log = RevisionLog.open(LogConfig.builder(dir).build()))
        {
            assertEquals(1, log.firstRevision());
            assertEquals(200, log.lastRevision());
            assertEquals(0, log.droppedAtOpen());
            revisions.write(log, 201);
            readAll(log, 1, 201);
            assertTrue(log.verify().ok(), () -> log.verify().problem());
        }
    }

    @Test
    void aTxnSizedRevisionIsOneRecordWithEveryChange()
    {
        final UnsafeBuffer key = new UnsafeBuffer(new byte[16]);
        final UnsafeBuffer value = new UnsafeBuffer(new byte[100]);
        try (RevisionLog log = RevisionLog.open(LogConfig.builder(dir).build()))
        {
            log.beginRevision(1, 5);
            for (int i = 0; i < 2_000; i++)
            {
                key.putInt(0, i);
                value.putInt(0, i * 3);
                log.appendChange(ChangeType.PUT, key, 0, 16, value, 0, 100, 1, 1, 1, null, 0, 0, 0, 0, 0);
            }
            log.endRevision();
            try (LogReader reader = log.reader())
            {
                final RevisionRecord record = new RevisionRecord();
                assertTrue(reader.next(record));
                assertEquals(2_000, record.changeCount());
                for (int i = 0; i < 2_000; i++)
                {
                    final ChangeView change = record.change(i);
                    assertEquals(i, change.buffer().getInt(change.keyOffset()));
                    assertEquals(i * 3, change.buffer().getInt(change.valueOffset()));
                }
                assertFalse(reader.next(record));
            }
        }
    }

    @Test
    void badInputIsRefusedWithATypedExceptionAndChangesNothing()
    {
        final UnsafeBuffer key = TestRevisions.bytes("k");
        final UnsafeBuffer value = TestRevisions.bytes("value");
        try (RevisionLog log = RevisionLog.open(LogConfig.builder(dir).build()))
        {
            assertThrows(IllegalStateException.class,
                () -> log.appendChange(ChangeType.PUT, key, 0, 1, value, 0, 5, 1, 1, 1, null, 0, 0, 0, 0, 0));
            assertThrows(IllegalStateException.class, log::endRevision);
            assertThrows(IllegalArgumentException.class, () -> log.beginRevision(0, 0));
            revisions.write(log, 1);
            assertThrows(IllegalArgumentException.class, () -> log.beginRevision(3, 0));
            assertThrows(IllegalArgumentException.class, () -> log.beginRevision(1, 0));
            log.beginRevision(2, 0);
            assertThrows(IllegalStateException.class, () -> log.beginRevision(3, 0));
            assertThrows(IllegalArgumentException.class,
                () -> log.appendChange((byte)9, key, 0, 1, value, 0, 5, 1, 1, 1, null, 0, 0, 0, 0, 0));
            assertThrows(IllegalArgumentException.class,
                () -> log.appendChange(ChangeType.PUT, key, 0, 0, value, 0, 5, 1, 1, 1, null, 0, 0, 0, 0, 0));
            assertThrows(IllegalArgumentException.class,
                () -> log.appendChange(ChangeType.PUT, key, 0, 2, value, 0, 5, 1, 1, 1, null, 0, 0, 0, 0, 0));
            assertThrows(IllegalArgumentException.class,
                () -> log.appendChange(ChangeType.DELETE, key, 0, 1, value, 0, 5, 0, 0, 0, null, 0, 0, 0, 0, 0));
            assertThrows(IllegalArgumentException.class,
                () -> log.appendChange(ChangeType.PUT, key, 0, 1, value, 0, 5, 1, 1, 1, null, 0, 3, 0, 0, 0));
            assertThrows(IllegalStateException.class, log::endRevision, "a revision with no change");
            assertEquals(1, log.lastRevision());
            revisions.write(log, 2);
            readAll(log, 1, 2);
            assertThrows(IllegalArgumentException.class, () -> log.compact(3));
        }
    }

    @Test
    void syncModeFlushMsyncsTheStoreAndAsyncModeDoesNot()
    {
        try (RevisionLog log = RevisionLog.open(LogConfig.builder(dir.resolve("sync"))
            .durability(LogConfig.Durability.SYNC).build()))
        {
            revisions.write(log, 1);
            revisions.write(log, 2);
            final long before = log.queue().lastIndexMSynced();
            log.flush();
            // StoreAppender.sync() records the index it msync'd up to right after MappedBytesStore.syncUpTo.
            assertEquals(log.queue().lastIndex(), log.queue().lastIndexMSynced());
            assertNotEquals(before, log.queue().lastIndexMSynced());
        }
        try (RevisionLog log = RevisionLog.open(LogConfig.builder(dir.resolve("async")).build()))
        {
            revisions.write(log, 1);
            final long before = log.queue().lastIndexMSynced();
            log.flush();
            assertEquals(before, log.queue().lastIndexMSynced());
        }
    }

    @Test
    void aReadOnlyLogReadsButRefusesWrites()
    {
        try (RevisionLog log = RevisionLog.open(LogConfig.builder(dir).build()))
        {
            for (long r = 1; r <= 10; r++)
            {
                revisions.write(log, r);
            }
        }
        try (RevisionLog log = RevisionLog.openReadOnly(dir))
        {
            assertEquals(10, log.lastRevision());
            readAll(log, 1, 10);
            assertThrows(IllegalStateException.class, () -> log.beginRevision(11, 0));
            assertTrue(log.verify().ok());
        }
    }

    static void readAll(final RevisionLog log, final long first, final long last)
    {
        try (LogReader reader = log.reader())
        {
            final RevisionRecord record = new RevisionRecord();
            for (long r = first; r <= last; r++)
            {
                assertTrue(reader.next(record), "revision " + r + " missing");
                TestRevisions.check(record, r);
            }
            assertFalse(reader.next(record), "nothing after " + last);
        }
    }
}
