package io.ringwatch.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The log's space thread ({@code ringwatch-log-space}) claims disk space ahead of the appender, so
 * appends within the claimed distance claim nothing on their own thread; without it
 * ({@code claimAheadBytes(0)}) every claim runs on the appending thread; closing the log stops it.
 */
class ClaimAheadTest
{
    private static final int VALUE_BYTES = 16 * 1024;
    private static final long AHEAD = 4L << 20;

    @TempDir
    Path dir;

    private final BigRevisions revisions = new BigRevisions(VALUE_BYTES);
    private final RecordingDiskSpace space = new RecordingDiskSpace();

    @Test
    void appendsWithinTheClaimedDistanceClaimNothingOnTheAppendingThread() throws InterruptedException
    {
        final Thread spaceThread;
        try (RevisionLog log = RevisionLog.open(config(AHEAD)))
        {
            revisions.write(log, 1);
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (space.bytesClaimedOn("ringwatch-log-space") < AHEAD / 2)
            {
                assertTrue(System.nanoTime() < deadline, "the space thread never claimed ahead: " + space.claims);
                Thread.sleep(5);
            }
            final int claimsBefore = space.claimsOn(Thread.currentThread().getName());

            // 1 MiB of revisions: within the distance claimed ahead.
            for (long revision = 2; revision <= 65; revision++)
            {
                revisions.write(log, revision);
            }

            assertEquals(claimsBefore, space.claimsOn(Thread.currentThread().getName()), "claims on the appending thread");
            revisions.readAll(log, 65);
            spaceThread = space.threadNamed("ringwatch-log-space");
        }
        spaceThread.join(TimeUnit.SECONDS.toMillis(30));
        assertFalse(spaceThread.isAlive(), "close stops the space thread");
    }

    @Test
    void appendsWithinThePrefaultedDistanceTakeNoPageFaultPerPageOnTheAppendingThread() throws Exception
    {
        assumeTrue(ThreadPageFaults.available(), "needs Linux 5.14 or later (MADV_POPULATE_WRITE) and /proc/thread-self");
        try (RevisionLog log = RevisionLog.open(
            LogConfig.builder(dir).diskSpace(space).claimAheadBytes(AHEAD).build()))
        {
            revisions.write(log, 1);
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (log.bytesPrefaulted() < AHEAD / 2)
            {
                assertTrue(System.nanoTime() < deadline, "the space thread never faulted pages in ahead");
                Thread.sleep(5);
            }
            final long faultsBefore = ThreadPageFaults.minor();

            // 1 MiB of revisions (256 pages of the log) within the distance faulted in ahead.
            for (long revision = 2; revision <= 65; revision++)
            {
                revisions.write(log, revision);
            }

            final long faults = ThreadPageFaults.minor() - faultsBefore;
            assertTrue(faults < 64, "minor page faults on the appending thread for 256 new pages: " + faults);
            revisions.readAll(log, 65);
        }
    }

    @Test
    void withoutClaimingAheadEveryClaimRunsOnTheAppendingThread()
    {
        try (RevisionLog log = RevisionLog.open(config(0)))
        {
            for (long revision = 1; revision <= 200; revision++)
            {
                revisions.write(log, revision);
            }
            revisions.readAll(log, 200);
        }
        assertTrue(space.claims.size() > 2, "3 MiB of revisions took several claims: " + space.claims);
        for (final Claim claim : space.claims)
        {
            assertEquals(Thread.currentThread(), claim.thread(), "claim " + claim);
        }
    }

    private LogConfig config(final long claimAhead)
    {
        return LogConfig.builder(dir).blockSize(1 << 20).diskSpace(space).claimAheadBytes(claimAhead).build();
    }

    private record Claim(Thread thread, long position, long length)
    {
    }

    /** The real disk, with every claim recorded with the thread that made it. */
    private static final class RecordingDiskSpace implements DiskSpace
    {
        final List<Claim> claims = new CopyOnWriteArrayList<>();

        @Override
        public long usableBytes(final Path directory) throws IOException
        {
            return DiskSpace.SYSTEM.usableBytes(directory);
        }

        @Override
        public void allocate(final Path file, final FileChannel channel, final long position, final long length)
            throws IOException
        {
            DiskSpace.SYSTEM.allocate(file, channel, position, length);
            claims.add(new Claim(Thread.currentThread(), position, length));
        }

        long bytesClaimedOn(final String threadName)
        {
            return claims.stream().filter(c -> c.thread().getName().equals(threadName)).mapToLong(Claim::length).sum();
        }

        int claimsOn(final String threadName)
        {
            return (int)claims.stream().filter(c -> c.thread().getName().equals(threadName)).count();
        }

        Thread threadNamed(final String threadName)
        {
            return claims.stream().map(Claim::thread).filter(t -> t.getName().equals(threadName)).findFirst().orElseThrow();
        }
    }
}
