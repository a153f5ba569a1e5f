package io.ringwatch.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class QueueFileWalkTest
{
    @TempDir
    Path dir;

    private final TestRevisions revisions = new TestRevisions();

    private Path writeAndFindFile(final int count) throws IOException
    {
        try (RevisionLog log = RevisionLog.open(LogConfig.builder(dir).blockSize(1 << 20).build()))
        {
            for (long r = 1; r <= count; r++)
            {
                revisions.write(log, r);
            }
        }
        try (Stream<Path> files = Files.list(dir.resolve(LogDirectory.QUEUE)))
        {
            return files.filter(f -> f.toString().endsWith(".cq4")).findFirst().orElseThrow();
        }
    }

    @Test
    void aWalkFromTheStartOfAClosedFileStopsAtItsWritePosition() throws IOException
    {
        final Path file = writeAndFindFile(300);
        final QueueFileWalk walk = new QueueFileWalk().walk(file, 0);
        assertEquals(QueueFileWalk.End.FREE, walk.end());
        final QueueFiles.Location last = QueueFiles.locate(dir, 300);
        assertEquals((last.end() + 3) & ~3L, walk.position(), "right after the last excerpt");
        assertEquals(QueueFileWalk.End.FREE, new QueueFileWalk().walk(file, last.end()).end());
    }

    @Test
    void aNotCompleteHeaderIsATornTail() throws IOException
    {
        final Path file = writeAndFindFile(10);
        final QueueFiles.Location last = QueueFiles.locate(dir, 10);
        QueueFiles.write(file, (last.end() + 3) & ~3L, QueueFiles.intLittleEndian(QueueFileWalk.NOT_COMPLETE | 590));
        assertEquals(QueueFileWalk.End.TORN, new QueueFileWalk().walk(file, 0).end());
    }

    @Test
    void aFileCutInsideADocumentIsCutShort() throws IOException
    {
        final Path file = writeAndFindFile(10);
        final QueueFiles.Location last = QueueFiles.locate(dir, 10);
        try (var channel = java.nio.channels.FileChannel.open(file, java.nio.file.StandardOpenOption.WRITE))
        {
            channel.truncate(last.end() - 5);
        }
        assertEquals(QueueFileWalk.End.CUT_SHORT, new QueueFileWalk().walk(file, 0).end());
    }

    @Test
    void onlyANotCompleteFirstHeaderMakesTheFirstHeaderTorn() throws IOException
    {
        final Path file = writeAndFindFile(10);
        assertFalse(QueueFileWalk.firstHeaderTorn(file), "a whole file");
        final QueueFiles.Location last = QueueFiles.locate(dir, 10);
        QueueFiles.write(file, (last.end() + 3) & ~3L, QueueFiles.intLittleEndian(QueueFileWalk.NOT_COMPLETE | 590));
        assertFalse(QueueFileWalk.firstHeaderTorn(file), "a torn tail is not a torn first header");
        QueueFiles.write(file, 0, QueueFiles.intLittleEndian(QueueFileWalk.NOT_COMPLETE | 590));
        assertTrue(QueueFileWalk.firstHeaderTorn(file));
        final QueueFileWalk walk = new QueueFileWalk().walk(file, 0);
        assertEquals(QueueFileWalk.End.TORN, walk.end(), "what a walk from the start reports");
        assertEquals(0, walk.position());
        QueueFiles.write(file, 0, QueueFiles.intLittleEndian(QueueFileWalk.END_OF_DATA));
        assertFalse(QueueFileWalk.firstHeaderTorn(file), "the end-of-data mark is not a torn header");
    }

    @Test
    void aFileShorterThanAHeaderHasNoTornFirstHeader() throws IOException
    {
        final Path file = Files.write(dir.resolve("short.cq4"), new byte[] {(byte)0x80, 0, 0});
        assertFalse(QueueFileWalk.firstHeaderTorn(file));
    }
}
