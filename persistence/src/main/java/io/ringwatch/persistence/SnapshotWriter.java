package io.ringwatch.persistence;

import static java.nio.ByteOrder.LITTLE_ENDIAN;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.function.LongConsumer;
import java.util.zip.CRC32C;

import io.ringwatch.engine.spi.SnapshotOutput;
import org.agrona.DirectBuffer;

/**
 * Streams the entries of an index snapshot taken at {@code snapshotRevision} to a temp file, then
 * {@link #commit()} forces it, renames it into place atomically and records it in the log's
 * metadata; older snapshots beyond the configured count are deleted. A writer closed without a
 * commit deletes its temp file. Each write first checks that the disk keeps {@code keepFree} bytes
 * free after it (the log's appends need them: a snapshot that filled the disk would fail the
 * writes it exists to speed up the recovery of) and fails, deleting the temp file, where it would
 * not. The engine takes FUZZY snapshots: it starts the scan at revision
 * S while the writer keeps going, and recovery replays the log from S + 1 (each logged change holds
 * the full post-state, so replaying a change the scan already saw is harmless).
 * <p>
 * Threading: one thread (a background snapshot thread, not the writer). Allocation: a 64 KiB
 * buffer at creation, then none per entry unless an entry is larger than any before; the free-space
 * query before each write of the buffer allocates a little (once per 64 KiB written).
 */
public final class SnapshotWriter implements SnapshotOutput
{
    private static final int BUFFER_BYTES = 64 * 1024;

    private final Path directory;
    private final long snapshotRevision;
    private final Path temp;
    private final FileChannel channel;
    private final LongConsumer onCommit;
    private final DiskSpace space;
    private final long keepFree;
    private final CRC32C crc = new CRC32C();
    private ByteBuffer buffer = ByteBuffer.allocateDirect(BUFFER_BYTES).order(LITTLE_ENDIAN);
    private long entries;
    private boolean finished;

    SnapshotWriter(final Path directory, final long snapshotRevision, final LongConsumer onCommit,
        final DiskSpace space, final long keepFree)
    {
        this.directory = directory;
        this.space = space;
        this.keepFree = keepFree;
        this.snapshotRevision = snapshotRevision;
        this.onCommit = onCommit;
        this.temp = SnapshotFiles.temp(directory, snapshotRevision);
        try
        {
            this.channel = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
        }
        catch (final IOException ex)
        {
            throw new LogWriteException("Cannot create snapshot file " + temp + ": " + ex, ex);
        }
        buffer.putInt(SnapshotFormat.MAGIC).putInt(SnapshotFormat.FORMAT_VERSION).putLong(snapshotRevision);
    }

    /**
     * The revision the snapshot was started at.
     *
     * @return the snapshot revision.
     */
    @Override
    public long snapshotRevision()
    {
        return snapshotRevision;
    }

    /**
     * Appends one key's current state. The snapshot thread; no allocation in steady state.
     *
     * @param key            buffer holding the key.
     * @param keyOffset      key start.
     * @param keyLength      key length, at least 1.
     * @param value          buffer holding the value.
     * @param valueOffset    value start.
     * @param valueLength    value length, 0 or more.
     * @param createRevision the key's create revision.
     * @param modRevision    the key's mod revision.
     * @param version        the key's version.
     * @throws IllegalArgumentException if a length or offset is out of range.
     * @throws IllegalStateException    if the writer was committed or closed.
     * @throws LogWriteException        if the storage fails, or writing would leave less free than
     *                                  the log's appends need; the snapshot is abandoned.
     */
    @Override
    public void append(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength,
        final long createRevision, final long modRevision, final long version, final long lease)
    {
        if (finished)
        {
            throw new IllegalStateException("snapshot " + snapshotRevision + " is already committed or closed");
        }
        RevisionLog.checkRange("key", key, keyOffset, keyLength, 1);
        RevisionLog.checkRange("value", value, valueOffset, valueLength, 0);
        final int length = SnapshotFormat.ENTRY_FIXED_LENGTH + keyLength + valueLength;
        ensureRoom(length);
        buffer.putInt(keyLength).putInt(valueLength).putLong(createRevision).putLong(modRevision).putLong(version)
            .putLong(lease);
        key.getBytes(keyOffset, buffer, buffer.position(), keyLength);
        buffer.position(buffer.position() + keyLength);
        if (valueLength > 0)
        {
            value.getBytes(valueOffset, buffer, buffer.position(), valueLength);
            buffer.position(buffer.position() + valueLength);
        }
        entries++;
    }

    /**
     * Seals the snapshot: trailer, CRC, fsync, atomic rename, directory fsync, metadata update and
     * pruning of older snapshots. The snapshot thread.
     *
     * @throws IllegalStateException if already committed or closed.
     * @throws LogWriteException     if the storage fails or the disk is too full; the temp file is deleted.
     */
    @Override
    public void commit()
    {
        if (finished)
        {
            throw new IllegalStateException("snapshot " + snapshotRevision + " is already committed or closed");
        }
        try
        {
            ensureRoom(SnapshotFormat.TRAILER_LENGTH);
            buffer.putInt(SnapshotFormat.END_MARKER).putLong(entries);
            drain();
            buffer.putInt((int)crc.getValue());
            buffer.flip();
            while (buffer.hasRemaining())
            {
                channel.write(buffer);
            }
            channel.force(true);
            channel.close();
            Files.move(temp, SnapshotFiles.committed(directory, snapshotRevision), StandardCopyOption.ATOMIC_MOVE,
                StandardCopyOption.REPLACE_EXISTING);
            MetadataFile.forceDirectory(directory);
            finished = true;
        }
        catch (final IOException ex)
        {
            close();
            throw new LogWriteException("Cannot commit snapshot " + snapshotRevision + ": " + ex, ex);
        }
        catch (final LogWriteException ex)
        {
            close();
            throw ex;
        }
        onCommit.accept(snapshotRevision);
    }

    /**
     * Abandons an uncommitted snapshot, deleting its temp file; does nothing after a commit.
     * The snapshot thread; idempotent.
     */
    @Override
    public void close()
    {
        if (finished)
        {
            return;
        }
        finished = true;
        try
        {
            channel.close();
            Files.deleteIfExists(temp);
        }
        catch (final IOException ex)
        {
            throw new LogWriteException("Cannot delete abandoned snapshot " + temp + ": " + ex, ex);
        }
    }

    private void ensureRoom(final int length)
    {
        if (buffer.remaining() >= length)
        {
            return;
        }
        try
        {
            drain();
        }
        catch (final IOException ex)
        {
            close();
            throw new LogWriteException("Cannot write snapshot " + temp + ": " + ex, ex);
        }
        catch (final LogWriteException ex)
        {
            close();
            throw ex;
        }
        if (buffer.capacity() < length)
        {
            buffer = ByteBuffer.allocateDirect(Math.max(length, buffer.capacity() * 2)).order(LITTLE_ENDIAN);
        }
    }

    /**
     * Refuses a write that would leave less than {@code keepFree} usable: the log's appends need it.
     */
    private void requireRoom(final long bytes)
    {
        final long usable;
        try
        {
            usable = space.usableBytes(directory);
        }
        catch (final IOException ex)
        {
            throw new LogWriteException("Cannot query the free space of " + directory + ": " + ex, ex);
        }
        if (usable < bytes + keepFree)
        {
            throw new LogWriteException("Disk nearly full: snapshot " + snapshotRevision + " abandoned; " + directory +
                " has " + usable + " bytes usable and writing " + bytes + " more would leave less than the " + keepFree +
                " the log's appends need");
        }
    }

    /**
     * Writes out the buffered bytes, adding them to the running CRC.
     */
    private void drain() throws IOException
    {
        requireRoom(buffer.position());
        buffer.flip();
        crc.update(buffer);
        buffer.rewind();
        while (buffer.hasRemaining())
        {
            channel.write(buffer);
        }
        buffer.clear();
    }
}
