package io.ringwatch.persistence;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The exclusive ownership of a data directory by one writable {@link RevisionLog}: an OS file lock
 * ({@code fcntl}) on {@code ringwatch.lock}, which the OS releases when the holder dies (kill -9
 * included), plus a registry for this JVM, because a JVM's file locks are per process.
 * <p>
 * Why the registry is checked BEFORE a channel is opened: POSIX drops every lock a process holds on
 * a file when the process closes ANY descriptor of that file, so a second open in the same JVM that
 * merely opened and closed the lock file would silently release the first owner's lock. The
 * registry is keyed by the lock file's identity (device and inode), so two paths to one directory
 * are one owner.
 * <p>
 * The lock file is never deleted (deleting it would let two processes lock two different files) and
 * is written only after the lock is held, with the holder's pid, host and start time, so a refused
 * open changes no byte. Package-private; opening thread; allocates.
 */
final class DirectoryLock implements AutoCloseable
{
    static final String NAME = "ringwatch.lock";

    private static final DateTimeFormatter SINCE =
        DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSSSSS'Z'").withZone(ZoneOffset.UTC);
    private static final ConcurrentHashMap<Object, String> HELD_IN_THIS_JVM = new ConcurrentHashMap<>();

    private final Object fileKey;
    private final FileChannel channel;
    private final FileLock lock;
    private final String holder;
    private boolean closed;

    private DirectoryLock(final Object fileKey, final FileChannel channel, final FileLock lock, final String holder)
    {
        this.fileKey = fileKey;
        this.channel = channel;
        this.lock = lock;
        this.holder = holder;
    }

    /**
     * Takes the lock of {@code directory}, creating the empty lock file if absent.
     *
     * @param directory an existing data directory already checked by {@link LogDirectory#inspect}.
     * @return the held lock; {@link #recordHolder()} writes who holds it.
     * @throws LogLockedException    if another open log, in this JVM or another process, holds it.
     * @throws LogDirectoryException if the lock file cannot be created or locked.
     */
    static DirectoryLock acquire(final Path directory)
    {
        final Path file = directory.resolve(NAME);
        final Object fileKey = fileKey(file);
        final String holder = describeThisProcess();
        final String inThisJvm = HELD_IN_THIS_JVM.putIfAbsent(fileKey, holder);
        if (inThisJvm != null)
        {
            throw locked(directory, inThisJvm + " (this JVM)");
        }
        FileChannel channel = null;
        try
        {
            channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
            FileLock lock;
            try
            {
                lock = channel.tryLock();
            }
            catch (final OverlappingFileLockException ex)
            {
                lock = null;
            }
            if (lock == null)
            {
                final String other = readHolder(channel);
                channel.close();
                HELD_IN_THIS_JVM.remove(fileKey, holder);
                throw locked(directory, other);
            }
            return new DirectoryLock(fileKey, channel, lock, holder);
        }
        catch (final IOException ex)
        {
            closeQuietly(channel);
            HELD_IN_THIS_JVM.remove(fileKey, holder);
            throw new LogDirectoryException("Cannot lock " + file + ": " + ex, ex);
        }
    }

    /**
     * Writes this process's description into the lock file, once the open has succeeded.
     *
     * @throws LogWriteException if the file cannot be written.
     */
    void recordHolder()
    {
        final ByteBuffer bytes = ByteBuffer.wrap((holder + "\n").getBytes(StandardCharsets.UTF_8));
        try
        {
            channel.truncate(0);
            while (bytes.hasRemaining())
            {
                channel.write(bytes, bytes.position());
            }
        }
        catch (final IOException ex)
        {
            throw new LogWriteException("Cannot write " + NAME + ": " + ex, ex);
        }
    }

    /**
     * Who holds the lock. Any thread; no allocation.
     *
     * @return this process's description.
     */
    String holder()
    {
        return holder;
    }

    /**
     * Releases the lock; the file stays. Idempotent.
     */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        try
        {
            lock.release();
        }
        catch (final IOException ignored)
        {
            // Closing the channel below releases the lock in any case.
        }
        closeQuietly(channel);
        HELD_IN_THIS_JVM.remove(fileKey, holder);
    }

    private static Object fileKey(final Path file)
    {
        try
        {
            try
            {
                Files.createFile(file);
            }
            catch (final java.nio.file.FileAlreadyExistsException ignored)
            {
                // The usual case: every earlier owner left the file in place.
            }
            final BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (!attributes.isRegularFile())
            {
                throw new LogDirectoryException(file + " is not a regular file; refusing to use it");
            }
            final Object key = attributes.fileKey();
            return key != null ? key : file.toRealPath().toString();
        }
        catch (final IOException ex)
        {
            throw new LogDirectoryException("Cannot create " + file + ": " + ex, ex);
        }
    }

    private static String readHolder(final FileChannel channel)
    {
        try
        {
            final ByteBuffer bytes = ByteBuffer.allocate(512);
            while (bytes.hasRemaining() && channel.read(bytes, bytes.position()) > 0)
            {
                // Reads what the holder wrote; it is short.
            }
            final String text = new String(bytes.array(), 0, bytes.position(), StandardCharsets.UTF_8).trim();
            return text.isEmpty() ? "unknown (the holder has not recorded itself yet)" : text;
        }
        catch (final IOException ex)
        {
            return "unknown (" + ex + ")";
        }
    }

    private static String describeThisProcess()
    {
        return describe(ProcessHandle.current().pid(), localHost(), Instant.now());
    }

    /**
     * The holder line, its start time always written with nine fraction digits: {@code Instant}'s own
     * text drops trailing zero groups (".123Z" for a whole millisecond, ".123456Z" otherwise), which
     * made the lock file of one process 3 bytes longer or shorter from one open to the next.
     *
     * @param pid   the holder's process id.
     * @param host  its host name.
     * @param since when it opened the log.
     * @return the line (without its newline); allocates it.
     */
    static String describe(final long pid, final String host, final Instant since)
    {
        return "pid " + pid + " on host " + host + " since " + SINCE.format(since);
    }

    private static String localHost()
    {
        String host;
        try
        {
            host = InetAddress.getLocalHost().getHostName();
        }
        catch (final IOException ex)
        {
            host = "unknown-host";
        }
        return host;
    }

    private static LogLockedException locked(final Path directory, final String holder)
    {
        return new LogLockedException(directory + " is in use by another open revision log: " + holder, holder);
    }

    private static void closeQuietly(final FileChannel channel)
    {
        if (channel != null)
        {
            try
            {
                channel.close();
            }
            catch (final IOException ignored)
            {
                // Nothing more can be done; the descriptor is gone either way.
            }
        }
    }
}
