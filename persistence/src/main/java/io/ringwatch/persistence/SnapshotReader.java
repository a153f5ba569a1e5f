package io.ringwatch.persistence;

import static java.nio.ByteOrder.LITTLE_ENDIAN;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

import org.agrona.ExpandableDirectByteBuffer;

/**
 * Iterates the entries of one committed snapshot. Opening checks the whole file (magic, version,
 * trailer, CRC32C) first, so a corrupt snapshot is refused before a single entry is handed out.
 * <p>
 * Threading: one thread. Allocation: a 64 KiB buffer at open; none per entry in steady state.
 */
public final class SnapshotReader implements AutoCloseable
{
    private static final int BUFFER_BYTES = 64 * 1024;

    private final Path file;
    private final FileChannel channel;
    private final long snapshotRevision;
    /** The fixed part of an entry in this file's format (format 1 had no lease). */
    private final int entryFixedLength;
    private final long entryCount;
    private final long size;
    private ByteBuffer buffer = ByteBuffer.allocateDirect(BUFFER_BYTES).order(LITTLE_ENDIAN);
    private long position;
    private long entriesRead;
    private boolean ended;

    private SnapshotReader(final Path file)
    {
        this.file = file;
        try
        {
            this.channel = FileChannel.open(file, StandardOpenOption.READ);
        }
        catch (final IOException ex)
        {
            throw new LogDirectoryException("Cannot open snapshot " + file + ": " + ex, ex);
        }
        try
        {
            size = channel.size();
            if (size < SnapshotFormat.HEADER_LENGTH + SnapshotFormat.TRAILER_LENGTH)
            {
                throw corrupted("is too short (" + size + " bytes)");
            }
            fill(0, SnapshotFormat.HEADER_LENGTH);
            if (buffer.getInt(0) != SnapshotFormat.MAGIC)
            {
                throw corrupted("has a bad magic number");
            }
            final int version = buffer.getInt(4);
            if (version > SnapshotFormat.FORMAT_VERSION)
            {
                throw new LogFormatException("Snapshot " + file + " has format version " + version +
                    "; this code reads up to " + SnapshotFormat.FORMAT_VERSION);
            }
            entryFixedLength = version == 1 ? SnapshotFormat.ENTRY_FIXED_LENGTH_V1 : SnapshotFormat.ENTRY_FIXED_LENGTH;
            snapshotRevision = buffer.getLong(8);
            checkCrc(size);
            fill(size - SnapshotFormat.TRAILER_LENGTH, SnapshotFormat.TRAILER_LENGTH);
            if (buffer.getInt(0) != SnapshotFormat.END_MARKER)
            {
                throw corrupted("has no end marker");
            }
            entryCount = buffer.getLong(4);
            position = SnapshotFormat.HEADER_LENGTH;
            buffer.clear().limit(0);
        }
        catch (final IOException ex)
        {
            closeQuietly();
            throw new SnapshotCorruptedException("Cannot read snapshot " + file + ": " + ex, ex);
        }
        catch (final RuntimeException ex)
        {
            closeQuietly();
            throw ex;
        }
    }

    /**
     * Opens and checks the snapshot file {@code file}. Any thread; allocates the reader.
     *
     * @param file a committed snapshot file.
     * @return the reader, positioned before the first entry.
     * @throws SnapshotCorruptedException if the file fails a check.
     * @throws LogFormatException         if a newer format version wrote it.
     * @throws LogDirectoryException      if it cannot be opened.
     */
    public static SnapshotReader open(final Path file)
    {
        return new SnapshotReader(file);
    }

    /**
     * The revision the snapshot was started at: replay the log from the next revision.
     *
     * @return the snapshot revision.
     */
    public long snapshotRevision()
    {
        return snapshotRevision;
    }

    /**
     * How many entries the snapshot holds.
     *
     * @return the entry count from the trailer.
     */
    public long entryCount()
    {
        return entryCount;
    }

    /**
     * Reads the next entry. The reader's thread; no allocation in steady state.
     *
     * @param into the entry to fill.
     * @return true if an entry was read, false after the last one.
     * @throws SnapshotCorruptedException if an entry's layout is broken.
     */
    public boolean next(final SnapshotEntry into)
    {
        if (ended)
        {
            return false;
        }
        try
        {
            ensure(4);
            if (buffer.getInt(buffer.position()) == SnapshotFormat.END_MARKER)
            {
                ended = true;
                if (entriesRead != entryCount)
                {
                    throw corrupted("ends after " + entriesRead + " entries but its trailer says " + entryCount);
                }
                return false;
            }
            ensure(entryFixedLength);
            final int keyLength = buffer.getInt();
            final int valueLength = buffer.getInt();
            final long createRevision = buffer.getLong();
            final long modRevision = buffer.getLong();
            final long version = buffer.getLong();
            final long lease = entryFixedLength == SnapshotFormat.ENTRY_FIXED_LENGTH ? buffer.getLong() : 0;
            position += entryFixedLength;
            if (keyLength < 1 || valueLength < 0 || (long)keyLength + valueLength > size - position)
            {
                throw corrupted("has an entry with bad lengths at byte " + position);
            }
            final int bytes = keyLength + valueLength;
            final ExpandableDirectByteBuffer target = into.prepare(keyLength, valueLength, createRevision, modRevision, version, lease);
            ensure(bytes);
            target.putBytes(0, buffer, buffer.position(), bytes);
            buffer.position(buffer.position() + bytes);
            position += bytes;
            entriesRead++;
            return true;
        }
        catch (final IOException ex)
        {
            throw new SnapshotCorruptedException("Cannot read snapshot " + file + ": " + ex, ex);
        }
    }

    /**
     * Closes the file. Idempotent.
     */
    @Override
    public void close()
    {
        closeQuietly();
    }

    private void checkCrc(final long size) throws IOException
    {
        final CRC32C crc = new CRC32C();
        final long covered = size - 4;
        for (long at = 0; at < covered; )
        {
            final int length = (int)Math.min(buffer.capacity(), covered - at);
            fill(at, length);
            crc.update(buffer);
            at += length;
        }
        fill(covered, 4);
        if (buffer.getInt(0) != (int)crc.getValue())
        {
            throw corrupted("fails its CRC check");
        }
    }

    /**
     * Reads {@code length} bytes at {@code at} into the buffer, positioned at 0.
     */
    private void fill(final long at, final int length) throws IOException
    {
        buffer.clear().limit(length);
        while (buffer.hasRemaining())
        {
            if (channel.read(buffer, at + buffer.position()) < 0)
            {
                throw corrupted("ends early");
            }
        }
        buffer.flip();
    }

    /**
     * Makes at least {@code length} unread bytes available at the buffer's position.
     */
    private void ensure(final int length) throws IOException
    {
        if (buffer.remaining() >= length)
        {
            return;
        }
        if (buffer.capacity() < length)
        {
            buffer = ByteBuffer.allocateDirect(Math.max(length, buffer.capacity() * 2)).order(LITTLE_ENDIAN);
        }
        final long fileAt = position;
        fill(fileAt, (int)Math.min(buffer.capacity(), size - fileAt));
        if (buffer.remaining() < length)
        {
            throw corrupted("ends early at byte " + fileAt);
        }
    }

    private SnapshotCorruptedException corrupted(final String what)
    {
        return new SnapshotCorruptedException("Snapshot " + file + " " + what);
    }

    private void closeQuietly()
    {
        try
        {
            channel.close();
        }
        catch (final IOException ignored)
        {
            // Closing a read-only channel has nothing to lose.
        }
    }
}
