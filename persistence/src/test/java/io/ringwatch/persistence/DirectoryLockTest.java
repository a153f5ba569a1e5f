package io.ringwatch.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DirectoryLockTest
{
    @TempDir
    Path root;

    private final TestRevisions revisions = new TestRevisions();

    private LogConfig config(final Path dir)
    {
        return LogConfig.builder(dir).blockSize(1 << 20).build();
    }

    @Test
    void aSecondOpenInTheSameJvmIsRefusedAndNamesTheHolder()
    {
        final Path dir = root.resolve("log");
        try (RevisionLog first = RevisionLog.open(config(dir)))
        {
            revisions.write(first, 1);
            final LogLockedException refused = assertThrows(LogLockedException.class, () -> RevisionLog.open(config(dir)));
            assertTrue(refused.holder().contains("pid " + ProcessHandle.current().pid()), refused.getMessage());
            assertTrue(refused.getMessage().contains("since"), refused.getMessage());
            revisions.write(first, 2);
        }
        try (RevisionLog reopened = RevisionLog.open(config(dir)))
        {
            assertEquals(2, reopened.lastRevision());
        }
    }

    @Test
    void theHolderLineHasOneLengthWhateverTheStartTimesFraction()
    {
        final Instant wholeSecond = Instant.ofEpochSecond(1_000_000_000L);

        assertEquals("pid 42 on host h since 2001-09-09T01:46:40.000000000Z", DirectoryLock.describe(42, "h", wholeSecond));
        for (final long nanos : new long[] {123_000_000L, 123_456_000L, 123_456_789L})
        {
            assertEquals(DirectoryLock.describe(42, "h", wholeSecond).length(),
                DirectoryLock.describe(42, "h", wholeSecond.plusNanos(nanos)).length(), "fraction " + nanos);
        }
    }

    @Test
    void reopeningInOneProcessKeepsTheLockFilesSize() throws IOException
    {
        final Path dir = root.resolve("log");
        try (RevisionLog first = RevisionLog.open(config(dir)))
        {
            revisions.write(first, 1);
        }
        final long size = Files.size(dir.resolve(DirectoryLock.NAME));
        for (int open = 0; open < 20; open++)
        {
            try (RevisionLog reopened = RevisionLog.open(config(dir)))
            {
                assertEquals(size, Files.size(dir.resolve(DirectoryLock.NAME)), "open " + open);
            }
        }
    }

    @Test
    void anotherPathToTheSameDirectoryIsTheSameOwner() throws IOException
    {
        final Path dir = root.resolve("log");
        try (RevisionLog first = RevisionLog.open(config(dir)))
        {
            Files.createDirectories(root.resolve("x"));
            assertThrows(LogLockedException.class, () -> RevisionLog.open(config(root.resolve("x").resolve("..").resolve("log"))));
        }
    }

    @Test
    void aRefusedSecondOpenInTheSameJvmKeepsTheOwnersLockAgainstOtherProcesses() throws Exception
    {
        final Path dir = root.resolve("log");
        try (RevisionLog first = RevisionLog.open(config(dir)))
        {
            revisions.write(first, 1);
            assertThrows(LogLockedException.class, () -> RevisionLog.open(config(dir)));
            final String child = LockHolder.tryOpen(dir);
            assertTrue(child.startsWith(LockHolder.LOCKED_EXIT + " locked: "), child);
            assertTrue(child.contains("pid " + ProcessHandle.current().pid()), child);
        }
    }

    @Test
    void aSecondProcessIsRefusedWhileThisOneOwnsTheDirectory() throws Exception
    {
        final Path dir = root.resolve("log");
        try (RevisionLog first = RevisionLog.open(config(dir)))
        {
            revisions.write(first, 1);
        }
        try (RevisionLog owner = RevisionLog.open(config(dir)))
        {
            final String child = LockHolder.tryOpen(dir);
            assertTrue(child.startsWith(LockHolder.LOCKED_EXIT + " locked: "), child);
        }
        assertTrue(LockHolder.tryOpen(dir).startsWith("0 opened"), "released on close");
    }

    @Test
    void thisProcessIsRefusedWhileAnotherProcessOwnsTheDirectoryAndOpensOnceItIsKilled() throws Exception
    {
        final Path dir = root.resolve("log");
        final Process holder = LockHolder.start("hold", dir);
        try
        {
            assertEquals("held", LockHolder.firstLine(holder));
            final LogLockedException refused = assertThrows(LogLockedException.class, () -> RevisionLog.open(config(dir)));
            assertTrue(refused.holder().startsWith("pid " + holder.pid() + " on host "), refused.getMessage());
            try (RevisionLog reader = RevisionLog.openReadOnly(dir))
            {
                assertEquals(0, reader.lastRevision(), "a read-only open takes no lock");
            }
        }
        finally
        {
            // SIGKILL: the holder never closes; the OS releases its lock.
            holder.toHandle().destroyForcibly();
            assertTrue(holder.waitFor(60, TimeUnit.SECONDS));
        }
        try (RevisionLog log = RevisionLog.open(config(dir)))
        {
            revisions.write(log, 1);
            assertEquals(1, log.lastRevision());
        }
    }
}
