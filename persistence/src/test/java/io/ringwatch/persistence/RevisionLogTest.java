package io.ringwatch.persistence;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
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
    void aRevisionAppendedFromEncodedChangesIsTheExcerptBuiltChangeByChange()
    {
        final UnsafeBuffer key = new UnsafeBuffer("pods/a".getBytes(StandardCharsets.UTF_8));
        final UnsafeBuffer value = new UnsafeBuffer("spec-2".getBytes(StandardCharsets.UTF_8));
        final UnsafeBuffer prev = new UnsafeBuffer("spec-1".getBytes(StandardCharsets.UTF_8));
        final byte[] byChange;
        try (RevisionLog log = RevisionLog.open(LogConfig.builder(dir.resolve("by-change")).build()))
        {
            log.beginRevision(7, 99);
            log.appendChange(ChangeType.PUT, key, 0, 6, value, 0, 6, 3, 7, 2, prev, 0, 6, 3, 5, 1);
            log.appendChange(ChangeType.DELETE, prev, 0, 6, null, 0, 0, 0, 0, 0, value, 0, 6, 4, 6, 2);
            log.endRevision();
            byChange = readOne(log);
        }

        // The same two changes, encoded by hand at an offset, as a writer's change record holds them.
        final UnsafeBuffer changes = new UnsafeBuffer(new byte[256]);
        int at = 3;
        at = encode(changes, at, ChangeType.PUT, key, value, 3, 7, 2, prev, 3, 5, 1);
        at = encode(changes, at, ChangeType.DELETE, prev, null, 0, 0, 0, value, 4, 6, 2);
        final int length = at - 3;
        final byte[] whole;
        try (RevisionLog log = RevisionLog.open(LogConfig.builder(dir.resolve("whole")).build()))
        {
            log.appendRevision(7, 99, changes, 3, length, 2);
            assertEquals(7, log.lastRevision());
            whole = readOne(log);
            assertTrue(log.verify().ok(), () -> log.verify().problem());
            assertThrows(IllegalArgumentException.class, () -> log.appendRevision(9, 99, changes, 3, length, 2));
            assertThrows(IllegalArgumentException.class, () -> log.appendRevision(8, 99, changes, 3, 60, 1));
            assertThrows(IllegalArgumentException.class, () -> log.appendRevision(8, 99, changes, 200, 100, 1));
            assertEquals(7, log.lastRevision());
        }

        assertArrayEquals(byChange, whole);
    }

    private static byte[] readOne(final RevisionLog log)
    {
        try (LogReader reader = log.reader())
        {
            final RevisionRecord record = new RevisionRecord();
            assertTrue(reader.next(record));
            final byte[] copy = new byte[record.encodedLength()];
            record.encoded().getBytes(0, copy);
            assertFalse(reader.next(record));
            return copy;
        }
    }

    private static int encode(
        final UnsafeBuffer into, final int at, final byte type, final UnsafeBuffer key, final UnsafeBuffer value,
        final long createRevision, final long modRevision, final long version,
        final UnsafeBuffer prev, final long prevCreateRevision, final long prevModRevision, final long prevVersion)
    {
        final int valueLength = value == null ? 0 : value.capacity();
        into.putByte(at + ExcerptLayout.TYPE, type);
        into.putInt(at + ExcerptLayout.KEY_LENGTH, key.capacity(), ByteOrder.LITTLE_ENDIAN);
        into.putInt(at + ExcerptLayout.VALUE_LENGTH, valueLength, ByteOrder.LITTLE_ENDIAN);
        into.putInt(at + ExcerptLayout.PREV_VALUE_LENGTH, prev.capacity(), ByteOrder.LITTLE_ENDIAN);
        into.putLong(at + ExcerptLayout.CREATE_REVISION, createRevision, ByteOrder.LITTLE_ENDIAN);
        into.putLong(at + ExcerptLayout.MOD_REVISION, modRevision, ByteOrder.LITTLE_ENDIAN);
        into.putLong(at + ExcerptLayout.VERSION, version, ByteOrder.LITTLE_ENDIAN);
        into.putLong(at + ExcerptLayout.PREV_CREATE_REVISION, prevCreateRevision, ByteOrder.LITTLE_ENDIAN);
        into.putLong(at + ExcerptLayout.PREV_MOD_REVISION, prevModRevision, ByteOrder.LITTLE_ENDIAN);
        into.putLong(at + ExcerptLayout.PREV_VERSION, prevVersion, ByteOrder.LITTLE_ENDIAN);
        int bytesAt = at + ExcerptLayout.CHANGE_FIXED_LENGTH;
        into.putBytes(bytesAt, key, 0, key.capacity());
        bytesAt += key.capacity();
        if (value != null)
        {
            into.putBytes(bytesAt, value, 0, valueLength);
            bytesAt += valueLength;
        }
        into.putBytes(bytesAt, prev, 0, prev.capacity());
        return bytesAt + prev.capacity();
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
