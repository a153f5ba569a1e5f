package io.ringwatch.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TornTailTest
{
    private static final int NOT_COMPLETE = 0x80000000;

    @TempDir
    Path dir;

    private final TestRevisions revisions = new TestRevisions();

    private LogConfig config()
    {
        return LogConfig.builder(dir).blockSize(1 << 20).build();
    }

    private void writeRevisions(final long last)
    {
        try (RevisionLog log = RevisionLog.open(config()))
        {
            for (long r = log.lastRevision() + 1; r <= last; r++)
            {
                revisions.write(log, r);
            }
        }
    }

    @Test
    void aLastExcerptWithABadCrcIsDroppedAtOpenAndNeverRead()
    {
        writeRevisions(50);
        final QueueFiles.Location last = QueueFiles.locate(dir, 50);
        QueueFiles.flipByte(last.file(), last.end() - 1);
        try (RevisionLog log = RevisionLog.open(config()))
        {
            assertEquals(1, log.droppedAtOpen());
            assertEquals(49, log.lastRevision());
            RevisionLogTest.readAll(log, 1, 49);
            revisions.write(log, 50);
            revisions.write(log, 51);
            RevisionLogTest.readAll(log, 1, 51);
            try (LogReader reader = log.reader())
            {
                assertTrue(reader.seek(50), "seek past the dropped excerpt");
                final RevisionRecord record = new RevisionRecord();
                assertTrue(reader.next(record));
                TestRevisions.check(record, 50);
            }
            final VerifyReport report = log.verify();
            assertTrue(report.ok(), report::problem);
            assertEquals(51, report.revisions());
        }
        try (RevisionLog log = RevisionLog.open(config()))
        {
            assertEquals(0, log.droppedAtOpen(), "the void excerpt is not torn");
            assertEquals(51, log.lastRevision());
        }
    }

    @Test
    void aNotCompleteHeaderLeftByAKilledWriterIsDroppedAndItsBytesCleared()
    {
        writeRevisions(20);
        final QueueFiles.Location last = QueueFiles.locate(dir, 20);
        final byte[] garbage = new byte[600];
        Arrays.fill(garbage, (byte)0x5A);
        // What kill -9 mid-write leaves: a header still marked not-complete, then part of a payload.
        QueueFiles.write(last.file(), last.end() + 4, garbage);
        QueueFiles.write(last.file(), last.end(), QueueFiles.intLittleEndian(NOT_COMPLETE | 590));
        try (RevisionLog log = RevisionLog.open(config()))
        {
            assertEquals(1, log.droppedAtOpen());
            assertEquals(20, log.lastRevision());
            RevisionLogTest.readAll(log, 1, 20);
            for (long r = 21; r <= 30; r++)
            {
                revisions.write(log, r);
            }
            RevisionLogTest.readAll(log, 1, 30);
            assertTrue(log.verify().ok(), () -> log.verify().problem());
        }
    }

    @Test
    void aBadCrcInTheMiddleIsAClearErrorForReadersAndVerify()
    {
        writeRevisions(40);
        final QueueFiles.Location middle = QueueFiles.locate(dir, 17);
        QueueFiles.flipByte(middle.file(), middle.start() + 40);
        try (RevisionLog log = RevisionLog.open(config()))
        {
            assertEquals(0, log.droppedAtOpen());
            assertEquals(40, log.lastRevision());
            try (LogReader reader = log.reader())
            {
                final RevisionRecord record = new RevisionRecord();
                for (long r = 1; r < 17; r++)
                {
                    assertTrue(reader.next(record));
                }
                final LogCorruptedException error = assertThrows(LogCorruptedException.class, () -> reader.next(record));
                assertTrue(error.getMessage().contains("CRC"), error.getMessage());
            }
            final VerifyReport report = log.verify();
            assertFalse(report.ok());
            assertEquals(16, report.lastRevision());
        }
    }
}
