package io.ringwatch.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;

import net.openhft.chronicle.queue.rollcycles.TestRollCycles;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A kill -9 while Chronicle creates a cycle file (the log's first, or the next one at a roll) leaves
 * a last file whose store header is marked not-complete and holds nothing; found by killing a
 * writing child at random (about one kill in five while the first file was being created), after
 * which no open accepted the log ({@code NotReachedException} from the queue). Here the file is left
 * in that state by hand: every byte zero but the not-complete mark of its first header.
 */
class UnbornCycleFileTest
{
    @TempDir
    Path dir;

    private final TestRevisions revisions = new TestRevisions();
    private final long[] now = {1_700_000_000_000L};

    private LogConfig config()
    {
        return LogConfig.builder(dir).rollCycle(TestRollCycles.TEST_SECONDLY).clockMillis(() -> now[0]).blockSize(1 << 20).build();
    }

    @Test
    void aFirstCycleFileAWriterDiedCreatingIsDroppedAndTheLogOpensEmpty() throws IOException
    {
        try (RevisionLog log = RevisionLog.open(config()))
        {
            revisions.write(log, 1);
        }
        unbear(cycleFiles().get(0));
        try (RevisionLog log = RevisionLog.open(config()))
        {
            assertEquals(0, log.lastRevision());
            revisions.write(log, 1);
            assertTrue(log.verify().ok(), () -> log.verify().problem());
        }
        try (RevisionLog log = RevisionLog.open(config()))
        {
            assertEquals(1, log.lastRevision());
        }
    }

    @Test
    void aCycleFileAWriterDiedCreatingAtARollIsDroppedAndNothingBeforeItIsLost() throws IOException
    {
        try (RevisionLog log = RevisionLog.open(config()))
        {
            for (long r = 1; r <= 3; r++)
            {
                revisions.write(log, r);
            }
            now[0] += 1_000;
            revisions.write(log, 4);
        }
        final List<Path> files = cycleFiles();
        assertEquals(2, files.size());
        unbear(files.get(1));
        try (RevisionLog log = RevisionLog.open(config()))
        {
            assertEquals(3, log.lastRevision());
            assertEquals(1, cycleFiles().size(), "the unborn file is gone");
            revisions.write(log, 4);
            assertTrue(log.verify().ok(), () -> log.verify().problem());
        }
        try (RevisionLog log = RevisionLog.open(config()))
        {
            assertEquals(4, log.lastRevision());
            assertTrue(log.verify().ok(), () -> log.verify().problem());
        }
    }

    private List<Path> cycleFiles() throws IOException
    {
        try (Stream<Path> files = Files.list(dir.resolve(LogDirectory.QUEUE)))
        {
            return files.filter(f -> f.toString().endsWith(".cq4")).sorted().toList();
        }
    }

    /** Leaves {@code file} as Chronicle leaves a file it was killed creating: zeros, its first header not complete. */
    private static void unbear(final Path file) throws IOException
    {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE))
        {
            final ByteBuffer zeros = ByteBuffer.allocate(64 * 1024);
            for (long at = 0; at < channel.size(); at += zeros.capacity())
            {
                zeros.clear().limit((int)Math.min(zeros.capacity(), channel.size() - at));
                channel.write(zeros, at);
            }
            channel.write(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, QueueFileWalk.NOT_COMPLETE), 0);
        }
    }
}
