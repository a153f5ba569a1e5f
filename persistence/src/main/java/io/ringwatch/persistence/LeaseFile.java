package io.ringwatch.persistence;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
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
 *         long revision (the newest revision in the revision log when it was recorded),
 *         int CRC32C of the 25 bytes before it
 * </pre>
 * The revision orders the records among the revisions for the replay tool ({@link #read}): a grant
 * recorded after revision R and before R + 1 says R; an end says the revision that deletes its keys,
 * and is recorded just before that revision is appended.
 * Opening reads every record into the live table (id to TTL) and cuts a torn tail (a crash in the
 * middle of an append) at the first record that fails its CRC, or that names a revision the revision
 * log does not hold (a crash between the end and its revision, or an OS crash that lost the log's
 * tail): the end of a lease whose keys the log still holds is void, so a revoke or an expiry is
 * all or nothing across the two files. When the file holds more than twice
 * the live leases' records (and over {@value #COMPACT_AFTER}), the next append rewrites it to the
 * live grants with their revisions (a temporary file, forced, then moved over it atomically): the
 * history of ended leases before a rewrite is then gone, except the grant and end of the highest id
 * ever granted when it has ended, so {@link #highestId()} survives every rewrite and a restarted
 * engine never grants again an id a client may still hold (etcd's ids are unique for the same
 * reason). Keep-alives are not recorded: recovery refreshes every lease to its full TTL, as etcd does.
 *
 * <p>Threading: opened on the opening thread, then appended and forced by the journal thread only.
 * Allocation: one record buffer; a rewrite allocates.
 */
public final class LeaseFile implements AutoCloseable
{
    /** The file's name in the data directory. */
    public static final String NAME = "ringwatch.leases";
    static final String TEMP_NAME = "ringwatch.leases.tmp";
    /** A grant record's op. */
    public static final byte GRANT = 1;
    /** An end (revoke or expiry) record's op. */
    public static final byte REVOKE = 2;
    static final int RECORD_LENGTH = 29;
    private static final int MAGIC = 0x534C5752;
    private static final int FORMAT_VERSION = 2;
    private static final int HEADER_LENGTH = 8;
    private static final int COMPACT_AFTER = 4096;

    private final Path file;
    /** Live leases: id to {TTL, revision of the grant}. */
    private final TreeMap<Long, long[]> live = new TreeMap<>();
    private final List<Record> history;
    private final ByteBuffer record = ByteBuffer.allocateDirect(RECORD_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
    private final CRC32C crc = new CRC32C();
    private FileChannel channel;
    private long records;
    private boolean dirty;
    /** The grant of the highest id ever recorded: id, TTL, revision; id 0 before the first. */
    private final long[] highestGrant = new long[3];
    /** The revision of that lease's end, or -1 while it lives. */
    private long highestEndRevision = -1;

    private LeaseFile(final Path file, final boolean keepHistory)
    {
        this.file = file;
        this.history = keepHistory ? new ArrayList<>() : null;
    }

    /**
     * One record of the lease log, as {@link #read} returns it.
     *
     * @param op         {@link #GRANT} or {@link #REVOKE}.
     * @param id         the lease id.
     * @param ttlSeconds the granted TTL; 0 for a revoke.
     * @param revision   the newest revision in the revision log when it was recorded.
     */
    public record Record(byte op, long id, long ttlSeconds, long revision)
    {
    }

    /**
     * Reads every record of the lease log in {@code directory}, in file order (which is revision
     * order), without changing it; for tools. Allocates the list.
     *
     * @param directory the data directory.
     * @return the records; empty when there is no lease log.
     * @throws LogFormatException    for a file of another format.
     * @throws LogDirectoryException if it cannot be read.
     */
    public static List<Record> read(final Path directory)
    {
        try (LeaseFile leases = new LeaseFile(directory.resolve(NAME), true))
        {
            leases.load(false, Long.MAX_VALUE);
            return leases.history;
        }
        catch (final IOException ex)
        {
            throw new LogDirectoryException("Cannot read the lease log in " + directory + ": " + ex, ex);
        }
    }

    /**
     * Opens (or creates) the lease log in {@code directory} and reads the live leases.
     *
     * @param directory    the data directory.
     * @param writable     false to read only (nothing is created or cut).
     * @param lastRevision the newest revision the recovered revision log holds: the file is cut at
     *                     the first record naming a newer one.
     * @return the file; {@link #live()} holds the leases it records.
     * @throws LogFormatException    for a file of another format.
     * @throws LogDirectoryException if it cannot be read or created.
     */
    static LeaseFile open(final Path directory, final boolean writable, final long lastRevision)
    {
        final LeaseFile leases = new LeaseFile(directory.resolve(NAME), false);
        try
        {
            leases.load(writable, lastRevision);
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
    Map<Long, long[]> live()
    {
        return live;
    }

    /**
     * @return the highest lease id ever recorded as granted, ended leases included (0 if none).
     *         The opening thread, or the journal thread; no allocation.
     */
    long highestId()
    {
        return highestGrant[0];
    }

    /**
     * Records a grant. Journal thread.
     *
     * @param id         the lease id.
     * @param ttlSeconds its granted TTL.
     * @param revision   the newest revision in the revision log.
     * @throws LogWriteException if the file cannot take it.
     */
    void grant(final long id, final long ttlSeconds, final long revision)
    {
        live.put(id, new long[] {ttlSeconds, revision});
        append(GRANT, id, ttlSeconds, revision);
        noteGrant(id, ttlSeconds, revision);
    }

    /**
     * Records a revoke or expiry. Journal thread.
     *
     * @param id       the lease id.
     * @param revision the revision that deletes its keys, about to be appended (the newest one when
     *                 it held none).
     * @throws LogWriteException if the file cannot take it.
     */
    void revoke(final long id, final long revision)
    {
        // Forgotten only once recorded: a rewrite on the way keeps its grant ahead of this end,
        // which recovery voids when the crash came before the end's revision.
        append(REVOKE, id, 0, revision);
        live.remove(id);
        noteEnd(id, revision);
    }

    private void noteGrant(final long id, final long ttlSeconds, final long revision)
    {
        if (id >= highestGrant[0])
        {
            highestGrant[0] = id;
            highestGrant[1] = ttlSeconds;
            highestGrant[2] = revision;
            highestEndRevision = -1;
        }
    }

    private void noteEnd(final long id, final long revision)
    {
        if (id == highestGrant[0])
        {
            highestEndRevision = revision;
        }
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

    private void append(final byte op, final long id, final long ttlSeconds, final long revision)
    {
        try
        {
            if (records > COMPACT_AFTER && records > 2L * live.size())
            {
                rewrite();
            }
            fill(op, id, ttlSeconds, revision);
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

    private void fill(final byte op, final long id, final long ttlSeconds, final long revision)
    {
        record.clear();
        record.put(op).putLong(id).putLong(ttlSeconds).putLong(revision);
        record.flip();
        crc.reset();
        crc.update(record);
        record.limit(RECORD_LENGTH).position(RECORD_LENGTH - Integer.BYTES);
        record.putInt((int)crc.getValue());
        record.flip();
    }

    private void load(final boolean writable, final long lastRevision) throws IOException
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
            final long revision = all.getLong();
            final int stored = all.getInt();
            if (stored != (int)check.getValue() || (op != GRANT && op != REVOKE) || revision > lastRevision)
            {
                break;
            }
            if (history != null)
            {
                history.add(new Record(op, id, ttl, revision));
            }
            if (op == GRANT)
            {
                live.put(id, new long[] {ttl, revision});
                noteGrant(id, ttl, revision);
            }
            else
            {
                live.remove(id);
                noteEnd(id, revision);
            }
            records++;
            end = all.position();
        }
        if (writable)
        {
            // A torn last record (a crash mid-append), or an end whose revision the log lost, is cut,
            // so the next append follows the last whole one and a reused revision number never revives it.
            channel.truncate(end);
            channel.position(end);
        }
    }

    private void rewrite() throws IOException
    {
        final Path temp = file.resolveSibling(TEMP_NAME);
        long written = 0;
        try (FileChannel out = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE))
        {
            writeHeader(out);
            final List<Record> kept = new ArrayList<>(live.size() + 2);
            for (final Map.Entry<Long, long[]> lease : live.entrySet())
            {
                kept.add(new Record(GRANT, lease.getKey(), lease.getValue()[0], lease.getValue()[1]));
            }
            if (highestEndRevision >= 0)
            {
                // Its end keeps it from reviving; the highest id survives the rewrite.
                kept.add(new Record(GRANT, highestGrant[0], highestGrant[1], highestGrant[2]));
                kept.add(new Record(REVOKE, highestGrant[0], 0, highestEndRevision));
            }
            // File order is revision order (a client may choose a low id late); the sort is stable.
            kept.sort(Comparator.comparingLong(Record::revision));
            for (final Record each : kept)
            {
                written += writeRecord(out, each);
            }
            out.force(false);
        }
        Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        channel.close();
        channel = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.READ);
        channel.position(channel.size());
        records = written;
    }

    private int writeRecord(final FileChannel out, final Record kept) throws IOException
    {
        fill(kept.op(), kept.id(), kept.ttlSeconds(), kept.revision());
        while (record.hasRemaining())
        {
            out.write(record);
        }
        return 1;
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
