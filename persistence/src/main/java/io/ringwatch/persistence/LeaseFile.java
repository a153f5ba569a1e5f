package io.ringwatch.persistence;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.CRC32C;

/**
 * The lease table's own log beside the revision log (issue 15): grants and revokes, which make no
 * revision (etcd's) and so have no place among the revision excerpts. Append-only records of
 * {@value #RECORD_LENGTH} bytes, little-endian:
 * <pre>
 * header: int magic "RWLS", int format version
 * record: byte op (1 grant, 2 revoke), long lease id, long TTL in seconds (0 for a revoke),
 *         int CRC32C of the 17 bytes before it
 * </pre>
 * Opening reads every record into the live table (id to TTL) and cuts a torn tail (a crash in the
 * middle of an append) at the first record that fails its CRC. When the file holds more than twice
 * the live leases' records (and over {@value #COMPACT_AFTER}), the next append rewrites it to the
 * live grants (a temporary file, forced, then moved over it atomically). Keep-alives are not
 * recorded: recovery refreshes every lease to its full TTL, as etcd does.
 *
 * <p>Threading: opened on the opening thread, then appended and forced by the journal thread only.
 * Allocation: one record buffer; a rewrite allocates.
 */
final class LeaseFile implements AutoCloseable
{
    static final String NAME = "ringwatch.leases";
    static final String TEMP_NAME = "ringwatch.leases.tmp";
    static final byte GRANT = 1;
    static final byte REVOKE = 2;
    static final int RECORD_LENGTH = 21;
    private static final int MAGIC = 0x534C5752;
    private static final int FORMAT_VERSION = 1;
    private static final int HEADER_LENGTH = 8;
    private static final int COMPACT_AFTER = 4096;

    private final Path file;
    private final TreeMap<Long, Long> live = new TreeMap<>();
    private final ByteBuffer record = ByteBuffer.allocateDirect(RECORD_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
    private final CRC32C crc = new CRC32C();
    private FileChannel channel;
    private long records;
    private boolean dirty;

    private LeaseFile(final Path file)
    {
        this.file = file;
    }

    /**
     * Opens (or creates) the lease log in {@code directory} and reads the live leases.
     *
     * @param directory the data directory.
     * @param writable  false to read only (nothing is created or cut).
     * @return the file; {@link #live()} holds the leases it records.
     * @throws LogFormatException    for a file of another format.
     * @throws LogDirectoryException if it cannot be read or created.
     */
    static LeaseFile open(final Path directory, final boolean writable)
    {
        final LeaseFile leases = new LeaseFile(directory.resolve(NAME));
        try
        {
            leases.load(writable);
        }
        catch (final IOException ex)
        {
            leases.close();
            throw new LogDirectoryException("Cannot open the lease log " + leases.file + ": " + ex, ex);
        }
        return leases;
    }

    /**
     * @return the live leases, id to granted TTL in seconds, in id order; the table itself (do not
     *         change it).
     */
    Map<Long, Long> live()
    {
        return live;
    }

    /**
     * Records a grant. Journal thread.
     *
     * @param id         the lease id.
     * @param ttlSeconds its granted TTL.
     * @throws LogWriteException if the file cannot take it.
     */
    void grant(final long id, final long ttlSeconds)
    {
        live.put(id, ttlSeconds);
        append(GRANT, id, ttlSeconds);
    }

    /**
     * Records a revoke or expiry. Journal thread.
     *
     * @param id the lease id.
     * @throws LogWriteException if the file cannot take it.
     */
    void revoke(final long id)
    {
        live.remove(id);
        append(REVOKE, id, 0);
    }

    /**
     * Forces what was appended since the last force to disk (SYNC group commit). Journal thread.
     *
     * @throws LogWriteException if the force fails.
     */
    void force()
    {
        if (!dirty)
        {
            return;
        }
        try
        {
            channel.force(false);
            dirty = false;
        }
        catch (final IOException ex)
        {
            throw new LogWriteException("Cannot force the lease log " + file + ": " + ex, ex);
        }
    }

    @Override
    public void close()
    {
        if (channel != null)
        {
            try
            {
                channel.close();
            }
            catch (final IOException ignore)
            {
                // Closing after the last append: nothing left to lose.
            }
            channel = null;
        }
    }

    private void append(final byte op, final long id, final long ttlSeconds)
    {
        try
        {
            if (records > COMPACT_AFTER && records > 2L * live.size())
            {
                rewrite();
            }
            fill(op, id, ttlSeconds);
            while (record.hasRemaining())
            {
                channel.write(record);
            }
            records++;
            dirty = true;
        }
        catch (final IOException ex)
        {
            throw new LogWriteException("Cannot append to the lease log " + file + ": " + ex, ex);
        }
    }

    private void fill(final byte op, final long id, final long ttlSeconds)
    {
        record.clear();
        record.put(op).putLong(id).putLong(ttlSeconds);
        record.flip();
        crc.reset();
        crc.update(record);
        record.limit(RECORD_LENGTH).position(RECORD_LENGTH - Integer.BYTES);
        record.putInt((int)crc.getValue());
        record.flip();
    }

    private void load(final boolean writable) throws IOException
    {
        if (!Files.exists(file))
        {
            if (!writable)
            {
                return;
            }
            channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, StandardOpenOption.READ);
            writeHeader(channel);
            channel.force(false);
            return;
        }
        channel = writable ?
            FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.READ) : FileChannel.open(file, StandardOpenOption.READ);
        final ByteBuffer all = ByteBuffer.allocate((int)Math.min(Integer.MAX_VALUE, channel.size())).order(ByteOrder.LITTLE_ENDIAN);
        while (all.hasRemaining() && channel.read(all, all.position()) >= 0)
        {
            // Reads from the file offset equal to the buffer's position, which started at 0.
        }
        all.flip();
        if (all.remaining() < HEADER_LENGTH || all.getInt() != MAGIC)
        {
            throw new LogFormatException(file + " is not a RingWatch lease log");
        }
        final int version = all.getInt();
        if (version != FORMAT_VERSION)
        {
            throw new LogFormatException(file + " has format version " + version + "; this code reads " + FORMAT_VERSION);
        }
        long end = HEADER_LENGTH;
        final CRC32C check = new CRC32C();
        while (all.remaining() >= RECORD_LENGTH)
        {
            final int at = all.position();
            check.reset();
            check.update(all.duplicate().position(at).limit(at + RECORD_LENGTH - Integer.BYTES));
            final byte op = all.get();
            final long id = all.getLong();
            final long ttl = all.getLong();
            final int stored = all.getInt();
            if (stored != (int)check.getValue() || (op != GRANT && op != REVOKE))
            {
                break;
            }
            if (op == GRANT)
            {
                live.put(id, ttl);
            }
            else
            {
                live.remove(id);
            }
            records++;
            end = all.position();
        }
        if (writable)
        {
            // A torn last record (a crash mid-append) is cut, so the next append follows the last whole one.
            channel.truncate(end);
            channel.position(end);
        }
    }

    private void rewrite() throws IOException
    {
        final Path temp = file.resolveSibling(TEMP_NAME);
        try (FileChannel out = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE))
        {
            writeHeader(out);
            for (final Map.Entry<Long, Long> lease : live.entrySet())
            {
                fill(GRANT, lease.getKey(), lease.getValue());
                while (record.hasRemaining())
                {
                    out.write(record);
                }
            }
            out.force(false);
        }
        Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        channel.close();
        channel = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.READ);
        channel.position(channel.size());
        records = live.size();
    }

    private static void writeHeader(final FileChannel channel) throws IOException
    {
        final ByteBuffer header = ByteBuffer.allocate(HEADER_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        header.putInt(MAGIC).putInt(FORMAT_VERSION).flip();
        while (header.hasRemaining())
        {
            channel.write(header);
        }
    }
}
