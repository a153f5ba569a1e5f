package io.ringwatch.persistence;

import static java.nio.ByteOrder.LITTLE_ENDIAN;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/**
 * The data directory's metadata file, little-endian:
 * <pre>
 *  0 int  magic "RWMD"
 *  4 int  format version
 *  8 long compact revision
 * 16 long newest snapshot revision (0: none)
 * 24 int  flags (format 2): bit 0, OPEN, set while a writer has the log open; bit 1,
 *          COMPACTED_AT_ZERO, set by etcd's compaction at 0 of a log never compacted (etcd's
 *          compaction mark is then 0, not -1; the compact revision stays 0)
 * 28 int  CRC32C of bytes [0, 28)
 * </pre>
 * Format 1 (no flags, 28 bytes) is still read, as closed cleanly. The OPEN flag is how a writable
 * open learns that the last writer did not close cleanly (a kill -9, a crash, a failed append): it
 * is written and forced before the open returns and cleared only by a clean close, so it survives
 * a kill at any point. A reader that knows only the OPEN bit ignores COMPACTED_AT_ZERO. Written atomically: a temp file, forced, renamed over the old one, then the
 * directory forced. Not on the hot path: callers serialise writes through the owning
 * {@link RevisionLog}.
 */
final class MetadataFile
{
    static final String NAME = "ringwatch.meta";
    static final String TEMP_NAME = "ringwatch.meta.tmp";
    static final int MAGIC = 0x444D5752;
    /** 2 since the OPEN flag; 1 is still read. */
    static final int FORMAT_VERSION = 2;
    private static final int LENGTH_V1 = 28;
    private static final int LENGTH = 32;
    private static final int FLAG_OPEN = 1;
    private static final int FLAG_COMPACTED_AT_ZERO = 2;

    private final long compactRevision;
    private final long snapshotRevision;
    private final boolean open;
    private final boolean compactedAtZero;

    MetadataFile(final long compactRevision, final long snapshotRevision)
    {
        this(compactRevision, snapshotRevision, false);
    }

    MetadataFile(final long compactRevision, final long snapshotRevision, final boolean open)
    {
        this(compactRevision, snapshotRevision, open, false);
    }

    private MetadataFile(final long compactRevision, final long snapshotRevision, final boolean open,
        final boolean compactedAtZero)
    {
        this.compactRevision = compactRevision;
        this.snapshotRevision = snapshotRevision;
        this.open = open;
        this.compactedAtZero = compactedAtZero;
    }

    /**
     * @return true while a writer has the log open, or when the last one did not close it cleanly.
     */
    boolean open()
    {
        return open;
    }

    MetadataFile withOpen(final boolean open)
    {
        return new MetadataFile(compactRevision, snapshotRevision, open, compactedAtZero);
    }

    /**
     * @return whether etcd's compaction at 0 was recorded while the compact revision was 0.
     */
    boolean compactedAtZero()
    {
        return compactedAtZero;
    }

    long compactRevision()
    {
        return compactRevision;
    }

    long snapshotRevision()
    {
        return snapshotRevision;
    }

    /**
     * @param revision the new compact revision; 0 (on a file whose compact revision is 0) records
     *                 etcd's compaction at 0.
     */
    MetadataFile withCompactRevision(final long revision)
    {
        return new MetadataFile(revision, snapshotRevision, open, compactedAtZero || revision == 0);
    }

    MetadataFile withSnapshotRevision(final long revision)
    {
        return new MetadataFile(compactRevision, revision, open, compactedAtZero);
    }

    /**
     * Reads the metadata file of {@code directory}.
     *
     * @return the contents, or null when the file does not exist.
     * @throws LogFormatException    if a newer format version wrote it.
     * @throws LogCorruptedException if the magic, length or CRC is wrong.
     */
    static MetadataFile read(final Path directory)
    {
        final Path file = directory.resolve(NAME);
        final byte[] bytes;
        try
        {
            bytes = Files.readAllBytes(file);
        }
        catch (final NoSuchFileException ex)
        {
            return null;
        }
        catch (final IOException ex)
        {
            throw new LogDirectoryException("Cannot read " + file + ": " + ex, ex);
        }
        final ByteBuffer buffer = ByteBuffer.wrap(bytes).order(LITTLE_ENDIAN);
        if (bytes.length < 8 || buffer.getInt(0) != MAGIC)
        {
            throw new LogCorruptedException(file + " is not a RingWatch metadata file (bad magic or length " + bytes.length + ")");
        }
        final int version = buffer.getInt(4);
        if (version > FORMAT_VERSION)
        {
            throw new LogFormatException(file + " has format version " + version + "; this code reads up to " + FORMAT_VERSION);
        }
        final int length = version == 1 ? LENGTH_V1 : LENGTH;
        if (bytes.length != length)
        {
            throw new LogCorruptedException(file + " has length " + bytes.length + ", expected " + length);
        }
        final CRC32C crc = new CRC32C();
        crc.update(bytes, 0, length - 4);
        if ((int)crc.getValue() != buffer.getInt(length - 4))
        {
            throw new LogCorruptedException(file + " fails its CRC check");
        }
        final int flags = version > 1 ? buffer.getInt(24) : 0;
        return new MetadataFile(buffer.getLong(8), buffer.getLong(16), (flags & FLAG_OPEN) != 0,
            (flags & FLAG_COMPACTED_AT_ZERO) != 0);
    }

    /**
     * Replaces the metadata file of {@code directory} atomically and durably.
     *
     * @throws LogWriteException if the storage fails.
     */
    void write(final Path directory)
    {
        final ByteBuffer buffer = ByteBuffer.allocate(LENGTH).order(LITTLE_ENDIAN);
        buffer.putInt(MAGIC).putInt(FORMAT_VERSION).putLong(compactRevision).putLong(snapshotRevision)
            .putInt((open ? FLAG_OPEN : 0) | (compactedAtZero ? FLAG_COMPACTED_AT_ZERO : 0));
        final CRC32C crc = new CRC32C();
        crc.update(buffer.array(), 0, LENGTH - 4);
        buffer.putInt((int)crc.getValue()).flip();
        final Path temp = directory.resolve(TEMP_NAME);
        try
        {
            try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING))
            {
                while (buffer.hasRemaining())
                {
                    channel.write(buffer);
                }
                channel.force(true);
            }
            Files.move(temp, directory.resolve(NAME), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            forceDirectory(directory);
        }
        catch (final IOException ex)
        {
            throw new LogWriteException("Cannot write " + directory.resolve(NAME) + ": " + ex, ex);
        }
    }

    /**
     * Forces a directory's entries (a rename, a new or deleted file) to disk.
     */
    static void forceDirectory(final Path directory) throws IOException
    {
        try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ))
        {
            channel.force(true);
        }
    }
}
