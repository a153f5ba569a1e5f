package io.ringwatch.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import net.openhft.chronicle.queue.rollcycles.TestRollCycles;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A full disk, injected through {@link DiskSpace} so it runs on any machine: the append that cannot
 * be backed fails with {@link LogWriteException} before it touches the mapping, every append that
 * returned survives, reads keep working, and a reopen with room recovers everything.
 */
class DiskFullTest
{
    private static final int VALUE_BYTES = 16 * 1024;

    @TempDir
    Path dir;

    private final BigRevisions revisions = new BigRevisions(VALUE_BYTES);

    private LogConfig config(final DiskSpace space, final long reserve)
    {
        return LogConfig.builder(dir).blockSize(1 << 20).durability(LogConfig.Durability.SYNC)
            .diskSpace(space).diskReserveBytes(reserve).build();
    }

    /** Appends until an append fails; returns the last revision whose append returned. */
    private long fill(final RevisionLog log, final long from)
    {
        long revision = from;
        while (true)
        {
            try
            {
                revisions.write(log, revision);
                log.flush();
            }
            catch (final LogWriteException expected)
            {
                assertEquals(revision - 1, log.lastRevision(), "the failed revision is not in the log");
                return revision - 1;
            }
            revision++;
            assertTrue(revision < 10_000, "the disk never filled");
        }
    }

    @Test
    void anAppendPastTheDiskFailsTypedAndEveryReturnedAppendSurvivesAReopenWithRoom()
    {
        final FaultyDiskSpace space = new FaultyDiskSpace(6L << 20);
        final long acknowledged;
        try (RevisionLog log = RevisionLog.open(config(space, 0)))
        {
            acknowledged = fill(log, 1);
            assertTrue(acknowledged > 100, "filled after " + acknowledged);
            revisions.readAll(log, acknowledged);
            assertTrue(log.verify().ok(), () -> log.verify().problem());
            assertThrows(LogWriteException.class, () -> revisions.write(log, acknowledged + 1), "still full");
            assertEquals(acknowledged, log.lastRevision());
        }
        try (RevisionLog log = RevisionLog.open(config(DiskSpace.SYSTEM, 0)))
        {
            assertEquals(acknowledged, log.lastRevision());
            assertEquals(0, log.droppedAtOpen(), "nothing torn");
            revisions.readAll(log, acknowledged);
            revisions.write(log, acknowledged + 1);
            revisions.readAll(log, acknowledged + 1);
        }
    }

    @Test
    void aDiskThatFillsAcrossCycleRollsLosesNoReturnedAppend()
    {
        final long[] now = {1_000_000L};
        final FaultyDiskSpace space = new FaultyDiskSpace(8L << 20);
        final LogConfig rolling = LogConfig.builder(dir).blockSize(1 << 20).durability(LogConfig.Durability.SYNC)
            .rollCycle(TestRollCycles.TEST_SECONDLY).clockMillis(() -> now[0]).diskSpace(space).diskReserveBytes(0).build();
        long acknowledged = 0;
        try (RevisionLog log = RevisionLog.open(rolling))
        {
            for (long revision = 1; ; revision++)
            {
                if (revision % 40 == 0)
                {
                    now[0] += 1_000;
                }
                try
                {
                    revisions.write(log, revision);
                    log.flush();
                }
                catch (final LogWriteException expected)
                {
                    break;
                }
                acknowledged = revision;
                assertTrue(revision < 10_000, "the disk never filled");
            }
            assertTrue(acknowledged > 80, "filled after " + acknowledged + ", before two rolls");
            revisions.readAll(log, acknowledged);
        }
        try (RevisionLog log = RevisionLog.open(LogConfig.builder(dir).blockSize(1 << 20)
            .rollCycle(TestRollCycles.TEST_SECONDLY).clockMillis(() -> now[0]).build()))
        {
            assertEquals(acknowledged, log.lastRevision());
            revisions.readAll(log, acknowledged);
        }
    }

    @Test
    void aClaimThatTheFileSystemRefusesFailsTheAppendTypedEvenWhenTheFreeSpaceLookedSufficient()
    {
        final FaultyDiskSpace space = new FaultyDiskSpace(5L << 20, true);
        final long acknowledged;
        try (RevisionLog log = RevisionLog.open(config(space, 0)))
        {
            acknowledged = fill(log, 1);
            assertTrue(acknowledged > 100, "filled after " + acknowledged);
            revisions.readAll(log, acknowledged);
        }
        try (RevisionLog log = RevisionLog.open(config(DiskSpace.SYSTEM, 0)))
        {
            assertEquals(acknowledged, log.lastRevision());
            revisions.readAll(log, acknowledged);
        }
    }

    @Test
    void nearTheEndOfTheDiskOnlyWhatTheExcerptNeedsIsClaimed()
    {
        final FaultyDiskSpace space = new FaultyDiskSpace((5L << 20) + (512 << 10));
        try (RevisionLog log = RevisionLog.open(config(space, 0)))
        {
            fill(log, 1);
            assertTrue(space.usableBytes(dir) < 2 * (VALUE_BYTES + 128) + (80 << 10),
                "the last half MiB was used, not left unclaimed: " + space.usableBytes(dir));
        }
    }

    @Test
    void theReserveRefusesAnAppendBeforeTheDiskIsFull()
    {
        final FaultyDiskSpace space = new FaultyDiskSpace(6L << 20);
        try (RevisionLog log = RevisionLog.open(config(space, 2L << 20)))
        {
            final long acknowledged = fill(log, 1);
            assertTrue(space.usableBytes(dir) >= 2L << 20, "the reserve stayed free: " + space.usableBytes(dir));
            revisions.readAll(log, acknowledged);
            space.budget(64L << 20);
            revisions.write(log, acknowledged + 1);
            revisions.readAll(log, acknowledged + 1);
        }
    }

    @Test
    void aReopenOnAStillFullDiskFailsTypedAndChangesNothingItCannotBack()
    {
        final FaultyDiskSpace space = new FaultyDiskSpace(4L << 20);
        final long acknowledged;
        try (RevisionLog log = RevisionLog.open(config(space, 0)))
        {
            acknowledged = fill(log, 1);
        }
        final FaultyDiskSpace full = new FaultyDiskSpace(0);
        assertThrows(LogWriteException.class, () -> RevisionLog.open(config(full, 0)));
        try (RevisionLog reader = RevisionLog.openReadOnly(dir))
        {
            revisions.readAll(reader, acknowledged);
        }
        try (RevisionLog log = RevisionLog.open(config(DiskSpace.SYSTEM, 0)))
        {
            revisions.readAll(log, acknowledged);
        }
    }
}
