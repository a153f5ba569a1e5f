package io.ringwatch.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LogDirectoryTest
{
    @TempDir
    Path root;

    private final TestRevisions revisions = new TestRevisions();

    private Path existingLog()
    {
        final Path dir = root.resolve("log");
        try (RevisionLog log = RevisionLog.open(LogConfig.builder(dir).blockSize(1 << 20).build()))
        {
            revisions.write(log, 1);
            revisions.write(log, 2);
        }
        return dir;
    }

    private <T extends RevisionLogException> void assertRefusedUnchanged(final Class<T> type, final Path dir)
    {
        final Map<String, Integer> before = QueueFiles.tree(root);
        assertThrows(type, () -> RevisionLog.open(LogConfig.builder(dir).blockSize(1 << 20).build()));
        assertEquals(before, QueueFiles.tree(root), "a failed open changed the directory");
    }

    @Test
    void aPathThatIsAFileIsRefused() throws IOException
    {
        final Path file = Files.writeString(root.resolve("file"), "not a log");
        assertRefusedUnchanged(LogDirectoryException.class, file);
    }

    @Test
    void aDirectoryWhoseParentIsAFileIsRefused() throws IOException
    {
        final Path file = Files.writeString(root.resolve("file"), "not a log");
        assertRefusedUnchanged(LogDirectoryException.class, file.resolve("log"));
    }

    @Test
    void aDirectoryWithForeignFilesIsRefused() throws IOException
    {
        final Path dir = Files.createDirectories(root.resolve("other"));
        Files.writeString(dir.resolve("notes.txt"), "someone else's");
        assertRefusedUnchanged(LogDirectoryException.class, dir);
        assertFalse(Files.exists(dir.resolve(LogDirectory.QUEUE)));
    }

    @Test
    void aForeignFileInsideTheQueueIsRefused() throws IOException
    {
        final Path dir = existingLog();
        Files.writeString(dir.resolve(LogDirectory.QUEUE).resolve("stray.bin"), "?");
        assertRefusedUnchanged(LogDirectoryException.class, dir);
    }

    @Test
    void aNewerFormatVersionIsRefused()
    {
        final Path dir = existingLog();
        QueueFiles.write(dir.resolve(MetadataFile.NAME), 4, QueueFiles.intLittleEndian(MetadataFile.FORMAT_VERSION + 1));
        assertRefusedUnchanged(LogFormatException.class, dir);
        assertThrows(LogFormatException.class, () -> RevisionLog.openReadOnly(dir));
    }

    @Test
    void corruptMetadataIsRefused()
    {
        final Path dir = existingLog();
        QueueFiles.flipByte(dir.resolve(MetadataFile.NAME), 10);
        assertRefusedUnchanged(LogCorruptedException.class, dir);
    }

    /** A metadata file cut short anywhere (0, inside the magic, the header, the CRC) is refused typed, read-only too. */
    @ParameterizedTest
    @ValueSource(ints = {0, 3, 8, 20, 28, 31})
    void truncatedMetadataIsRefused(final int length) throws IOException
    {
        final Path dir = existingLog();
        try (FileChannel channel = FileChannel.open(dir.resolve(MetadataFile.NAME), StandardOpenOption.WRITE))
        {
            channel.truncate(length);
        }
        assertRefusedUnchanged(LogCorruptedException.class, dir);
        assertThrows(LogCorruptedException.class, () -> RevisionLog.openReadOnly(dir));
    }

    @Test
    void queueFilesWithoutMetadataAreRefused() throws IOException
    {
        final Path dir = existingLog();
        Files.delete(dir.resolve(MetadataFile.NAME));
        assertRefusedUnchanged(LogDirectoryException.class, dir);
    }

    @Test
    void anUnwritableDirectoryIsRefused() throws IOException
    {
        assumeFalse("root".equals(System.getProperty("user.name")), "root writes through permission bits");
        final Path dir = existingLog();
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("r-xr-xr-x"));
        try
        {
            assertRefusedUnchanged(LogDirectoryException.class, dir);
        }
        finally
        {
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
    }

    @Test
    void openReadOnlyRefusesAMissingLog()
    {
        assertThrows(LogDirectoryException.class, () -> RevisionLog.openReadOnly(root.resolve("missing")));
    }
}
