package io.ringwatch.persistence;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import net.openhft.chronicle.core.io.BackgroundResourceReleaser;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A queue file cut short is refused before anything reads it through a mapping: no fault, so no
 * {@link InternalError} that the JVM could deliver at a later point of the opening thread. On
 * 27 Nov one such delayed error, in a refused open of a file cut short, left Chronicle's
 * background releaser locked by the test thread for good: the next tests' journal threads waited
 * on it for ever at their first roll (two 300 s timeouts in a clean-clone verify; {@code jstack -l}
 * showed the test's main thread owning the releaser queue's lock). Before the check, every refused
 * open of such a file had the fault as its cause (40 of 40 here), for writable and read-only opens.
 */
class CutShortWithoutAFaultTest
{
    private static final int ROUNDS = 5;

    @TempDir
    Path root;

    private final TestRevisions revisions = new TestRevisions();

    @Test
    void aWritableOpenRefusesAFileCutShortWithoutReadingPastItsEnd() throws Exception
    {
        for (int round = 0; round < ROUNDS; round++)
        {
            final Path dir = cutShortLog("w" + round);
            final LogCorruptedException refused = assertThrows(LogCorruptedException.class,
                () -> RevisionLog.open(config(dir)));
            assertNoFault(refused);
            assertTrue(refused.getMessage().contains("cut short"), refused.getMessage());
            assertOtherThreadsCanStillRelease();
        }
    }

    @Test
    void aReadOnlyOpenRefusesAFileCutShortWithoutReadingPastItsEnd() throws Exception
    {
        for (int round = 0; round < ROUNDS; round++)
        {
            final Path dir = cutShortLog("r" + round);
            final LogCorruptedException refused = assertThrows(LogCorruptedException.class,
                () -> RevisionLog.openReadOnly(dir));
            assertNoFault(refused);
            assertOtherThreadsCanStillRelease();
        }
    }

    @Test
    void aLogThatIsWholeIsNotTakenForOneCutShort()
    {
        final Path dir = root.resolve("whole");
        write(dir, 5_000);
        try (RevisionLog log = RevisionLog.openReadOnly(dir))
        {
            assertTrue(log.verify().ok());
        }
        try (RevisionLog log = RevisionLog.open(config(dir)))
        {
            revisions.write(log, log.lastRevision() + 1);
        }
    }

    private LogConfig config(final Path dir)
    {
        return LogConfig.builder(dir).blockSize(1 << 20).build();
    }

    private void write(final Path dir, final int count)
    {
        try (RevisionLog log = RevisionLog.open(config(dir)))
        {
            for (long r = 1; r <= count; r++)
            {
                revisions.write(log, r);
            }
        }
    }

    private Path cutShortLog(final String name) throws IOException
    {
        final Path dir = root.resolve(name);
        write(dir, 200);
        final QueueFiles.Location middle = QueueFiles.locate(dir, 120);
        try (FileChannel channel = FileChannel.open(middle.file(), StandardOpenOption.WRITE))
        {
            channel.truncate(middle.start() + 10);
        }
        return dir;
    }

    private static void assertNoFault(final Throwable refused)
    {
        for (Throwable cause = refused; cause != null; cause = cause.getCause())
        {
            assertFalse(cause instanceof InternalError, "the open read past the file's end: " + cause);
        }
    }

    /** Another thread hands Chronicle's releaser something: it cannot if a thread left its lock held. */
    private static void assertOtherThreadsCanStillRelease() throws InterruptedException
    {
        final CountDownLatch handed = new CountDownLatch(1);
        final Thread other = new Thread(() ->
        {
            BackgroundResourceReleaser.run(() -> { });
            handed.countDown();
        }, "other-releaser-user");
        other.setDaemon(true);
        other.start();
        assertTrue(handed.await(60, TimeUnit.SECONDS), "another thread waits on Chronicle's releaser");
    }
}
