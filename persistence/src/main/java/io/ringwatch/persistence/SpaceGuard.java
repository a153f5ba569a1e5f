package io.ringwatch.persistence;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.locks.LockSupport;

import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.TailerDirection;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import net.openhft.chronicle.wire.Wire;

/**
 * Keeps the pages the appender (and the tailers reading the next header) will touch backed by the
 * file system, so a full disk fails an append with {@link LogWriteException} BEFORE the mapping is
 * touched instead of raising SIGBUS inside it (Chronicle-Queue issue #1282):
 * <ul>
 * <li>where the write position is known (the appender's wire, in the same cycle file), the space
 *     from it to past the excerpt plus room for Chronicle's index arrays must be claimed, in steps
 *     of at least {@link #STEP} bytes, through {@link DiskSpace#allocate}; the claim also requires
 *     the configured reserve to stay free;</li>
 * <li>where it is not (the first append after open, or one that rolls to a new cycle file, which
 *     Chronicle creates and writes a header into), the file system must have the excerpt, the new
 *     file's header and the reserve free.</li>
 * </ul>
 * Claiming writes zeros through the page cache and asks the file system for blocks; on a busy
 * disk one step can block for milliseconds (writeback throttling, block allocation). With
 * {@link LogConfig#claimAheadBytes()} a background thread ({@code <prefix>-log-space}) keeps the
 * claim that far ahead of the last write position the appending thread published, so the
 * appending thread only compares its position with a volatile bound. It claims itself, under the
 * same lock, when the background thread fell behind, after a roll, and near the reserve (where
 * the background thread stops, so a nearly full disk is claimed excerpt by excerpt exactly as
 * without it). A background claim that fails changes nothing; the appending thread's own claim
 * then reports the full disk.
 * <p>
 * Package-private; the log's appending thread (and the opening thread for {@link #claimAtOpen}).
 * No allocation in steady state (per step one positional read and one {@link DiskSpace#allocate},
 * on the background thread while the disk is roomy).
 */
final class SpaceGuard implements AutoCloseable
{
    /** How far ahead space is claimed at a time. */
    static final long STEP = 1024 * 1024;

    /** The usable space is asked again when the estimate comes this close to the reserve... */
    private static final long RECHECK_MARGIN = 16 * STEP;
    /** ... and after this many claims in any case, since other writers share the file system. */
    private static final int QUERY_EVERY_CLAIMS = 64;
    /** The background thread looks at the write position at least this often... */
    private static final long AHEAD_PERIOD_NANOS = 50_000_000L;
    /** ... and waits this long after a claim of its own failed before it tries again. */
    private static final long AHEAD_BACKOFF_NANOS = 200_000_000L;

    private final SingleChronicleQueue queue;
    private final DiskSpace space;
    private final Path directory;
    private final long reserve;
    private final long overhead;
    private final long claimAhead;
    private final ByteBuffer probe = ByteBuffer.allocateDirect(4);
    /** Guards the claim state below (file, channel, claimedTo, the estimate) and the DiskSpace. */
    private final Object claimLock = new Object();
    private final Thread claimer;
    /** Faults the appender's pages in ahead of it, on the background thread; null without it. */
    private final PagePrefault prefault;
    private long usableEstimate = Long.MIN_VALUE / 2;
    private int claimsSinceQuery;
    private File file;
    private FileChannel channel;
    private long claimedTo;
    /** The claimed file and bound for the appending thread's check; file first, bound second. */
    private volatile File claimedFile;
    private volatile long claimedEnd = -1;
    /** The last write position the appending thread published, and its file. */
    private volatile File appendFile;
    private volatile long appendPosition;
    private volatile boolean claimWanted;
    private volatile boolean closed;

    SpaceGuard(
        final SingleChronicleQueue queue,
        final DiskSpace space,
        final Path directory,
        final long reserve,
        final long claimAhead,
        final String threadName)
    {
        this.queue = queue;
        this.space = space;
        this.directory = directory;
        this.reserve = reserve;
        this.claimAhead = claimAhead;
        // Two index arrays (a new index2index entry's array and the index array) plus headers,
        // alignment padding and an end-of-file marker.
        this.overhead = 2L * (queue.rollCycle().defaultIndexCount() * 8L + 64) + 256;
        if (claimAhead > 0)
        {
            claimer = new Thread(this::claimAheadLoop, threadName);
            claimer.setDaemon(true);
            prefault = new PagePrefault(NativePosix.linux());
        }
        else
        {
            claimer = null;
            prefault = null;
        }
    }

    /**
     * Claims the space an excerpt of {@code length} bytes needs before it is written. Appending
     * thread; no allocation.
     *
     * @throws LogWriteException if the file system cannot back it; nothing was written.
     */
    void beforeAppend(final ExcerptAppender appender, final int length)
    {
        final Wire wire = appender.wire();
        if (wire == null || appender.cycle() != queue.cycle())
        {
            // A new cycle file: Chronicle maps it and writes its header and first index arrays.
            requireFree(length + 2 * overhead);
            return;
        }
        final long position = wire.bytes().writePosition();
        final long needed = position + length + overhead;
        final File current = appender.currentFile();
        // The file first, then its bound: a bound read after the file belongs to that file or a later one.
        final File claimed = claimedFile;
        final long end = claimedEnd;
        if (claimer != null)
        {
            publish(current, position, wire);
        }
        if (claimed != null && isSame(claimed, current) && needed <= end)
        {
            // The space thread's own test, on the same position: a ring always finds work.
            if (claimer != null && end - position < claimAhead / 2 && !claimWanted)
            {
                claimWanted = true;
                LockSupport.unpark(claimer);
            }
            return;
        }
        synchronized (claimLock)
        {
            claim(current, position, needed, false);
        }
    }

    /**
     * After an append that changed files, claims room past the new write position so readers that
     * probe the next header never fault on a hole. Best effort: a failure leaves the next
     * {@link #beforeAppend} to report the full disk. Appending thread.
     */
    void afterAppend(final ExcerptAppender appender)
    {
        final Wire wire = appender.wire();
        final File current = appender.currentFile();
        final File claimed = claimedFile;
        if (wire == null || current == null || (claimed != null && isSame(claimed, current)))
        {
            return;
        }
        final long position = wire.bytes().writePosition();
        if (claimer != null)
        {
            publish(current, position, wire);
        }
        try
        {
            synchronized (claimLock)
            {
                claim(current, position, position + overhead, false);
            }
        }
        catch (final LogWriteException ignored)
        {
            // Reported by the next append, before it touches anything.
        }
    }

    /**
     * At open, before the appender exists: finds the write position of the last cycle file by
     * walking Chronicle's headers from the end of its last excerpt, and claims room past it, so the
     * first append and readers probing the next header never fault on a hole.
     *
     * @throws LogWriteException if the space cannot be claimed (a still-full disk).
     */
    void claimAtOpen()
    {
        File tailFile = null;
        long excerptEnd = 0;
        try (ExcerptTailer tailer = queue.createTailer())
        {
            tailer.direction(TailerDirection.BACKWARD).toEnd();
            try (DocumentContext dc = tailer.readingDocument())
            {
                if (dc.isPresent())
                {
                    excerptEnd = dc.wire().bytes().readLimit();
                    tailFile = tailer.currentFile();
                    dc.rollbackOnClose();
                }
            }
        }
        if (tailFile == null)
        {
            requireFree(2 * overhead);
        }
        else
        {
            final long position = writePosition(tailFile, excerptEnd);
            if (position >= 0)
            {
                synchronized (claimLock)
                {
                    claim(tailFile, position, position + overhead, false);
                }
            }
        }
        if (claimer != null)
        {
            claimer.start();
        }
    }

    /**
     * Checks that the file system holding the log has {@code bytes} plus the reserve free.
     *
     * @throws LogWriteException if it has not, or cannot be asked.
     */
    static void requireFree(final LogConfig config, final long bytes)
    {
        requireFree(config.diskSpace(), config.directory(), bytes, config.diskReserveBytes());
    }

    /**
     * Stops the background thread, then closes the claim channel. Any thread, once the appending
     * thread is done.
     */
    @Override
    public void close()
    {
        closed = true;
        if (claimer != null && claimer.isAlive())
        {
            LockSupport.unpark(claimer);
            boolean interrupted = false;
            while (claimer.isAlive())
            {
                try
                {
                    claimer.join();
                }
                catch (final InterruptedException e)
                {
                    interrupted = true;
                }
            }
            if (interrupted)
            {
                Thread.currentThread().interrupt();
            }
        }
        synchronized (claimLock)
        {
            closeChannel();
        }
    }

    /**
     * @return the bytes of the appender's mapping faulted in ahead of it so far; 0 without a
     * background thread or where the kernel cannot. Any thread.
     */
    long bytesPrefaulted()
    {
        return prefault == null ? 0 : prefault.bytesFaulted();
    }

    /**
     * Publishes the appending thread's write position for the background thread, and wakes it when
     * the appender's mapping changed, so the new mapping's pages are faulted in before it reaches
     * them. Appending thread; allocates only when the mapping changed (once per mapped chunk).
     */
    private void publish(final File current, final long position, final Wire wire)
    {
        if (appendFile != current)
        {
            // Stored only when it changes (a roll): a volatile store per append costs a fence.
            appendFile = current;
        }
        appendPosition = position;
        if (prefault.noteMapping(current, wire.bytes().bytesStore()))
        {
            LockSupport.unpark(claimer);
        }
    }

    /**
     * The background thread: whenever the claim is less than half the distance ahead of the last
     * published write position, claims up to the full distance, in the same cycle file only (the
     * appending thread moves the claim to a new file). Stops near the reserve. Then it faults in the
     * appender's pages up to the claim ({@link PagePrefault}), never past it.
     */
    private void claimAheadLoop()
    {
        while (!closed)
        {
            LockSupport.parkNanos(this, AHEAD_PERIOD_NANOS);
            final File target = appendFile;
            final long position = appendPosition;
            if (target == null)
            {
                continue;
            }
            boolean stalled;
            long claimedBound = -1;
            try
            {
                synchronized (claimLock)
                {
                    stalled = !closed && isCurrent(target) && claimedTo - position < claimAhead / 2 &&
                        !claim(target, position, position + claimAhead, true);
                    if (isCurrent(target))
                    {
                        claimedBound = claimedTo;
                    }
                }
            }
            catch (final LogWriteException ex)
            {
                // Changes nothing: the appending thread claims for itself and reports a full disk.
                stalled = true;
            }
            if (!closed && claimedBound > position)
            {
                prefault.prefault(target, position, claimedBound);
            }
            // While this thread cannot claim (near the reserve, after a failure) the appending
            // thread's wakes stay muted, and it looks again after a back-off; a wake that came
            // since the position was read left its permit, so the next park returns at once.
            claimWanted = stalled;
            if (stalled)
            {
                LockSupport.parkNanos(this, AHEAD_BACKOFF_NANOS);
            }
        }
    }

    /**
     * Claims {@code [position, needed)} of {@code target} (or more: at least a {@link #STEP}).
     * Under {@link #claimLock}.
     *
     * @param ahead true on the background thread: claims nothing near the reserve.
     * @return false if {@code ahead} and nothing was claimed for being near the reserve.
     */
    private boolean claim(final File target, final long position, final long needed, final boolean ahead)
    {
        try
        {
            if (!isCurrent(target))
            {
                closeChannel();
                channel = FileChannel.open(target.toPath(), StandardOpenOption.READ, StandardOpenOption.WRITE);
                file = target;
                claimedTo = position;
                claimedEnd = -1;
                claimedFile = target;
                claimedEnd = position;
            }
            if (needed <= claimedTo)
            {
                return true;
            }
            final long from = Math.max(claimedTo, position);
            long length = Math.max(needed, claimedTo + STEP) - from;
            if (usableEstimate - length < reserve + RECHECK_MARGIN || ++claimsSinceQuery >= QUERY_EVERY_CLAIMS)
            {
                // Asking the file system allocates; on a roomy disk it is asked only now and then.
                usableEstimate = space.usableBytes(directory);
                claimsSinceQuery = 0;
            }
            if (ahead && usableEstimate - length < reserve + RECHECK_MARGIN)
            {
                // Near the end of the disk the appending thread claims exactly what it needs.
                return false;
            }
            if (usableEstimate - length < reserve)
            {
                // Near the end of the disk: claim only what this excerpt needs.
                length = needed - from;
            }
            if (usableEstimate - length < reserve)
            {
                throw new LogWriteException("Disk full: " + directory + " has " + usableEstimate + " bytes usable; claiming " +
                    length + " more for " + target.getName() + " would leave less than the reserve of " + reserve);
            }
            if (!isFree(from))
            {
                // Never claim over what Chronicle wrote: refuse rather than guess where the data ends.
                throw new LogWriteException("Cannot claim disk space in " + target + ": bytes at " + from +
                    " are already written (write position " + position + ", claimed to " + claimedTo + ")");
            }
            space.allocate(target.toPath(), channel, from, length);
            usableEstimate -= length;
            claimedTo = from + length;
            claimedEnd = claimedTo;
            return true;
        }
        catch (final IOException ex)
        {
            throw new LogWriteException("Cannot claim disk space in " + target + " (disk full?): " + ex, ex);
        }
    }

    /**
     * Whether the 4 bytes at {@code position} are zeros (or past the end of the file): nothing was
     * written there. One positional read per claim.
     */
    private boolean isFree(final long position) throws IOException
    {
        probe.clear();
        while (probe.hasRemaining())
        {
            if (channel.read(probe, position + probe.position()) < 0)
            {
                return true;
            }
        }
        return probe.getInt(0) == 0;
    }

    /** Chronicle hands out the same File object per store; equals only after a roll or reopen. */
    private boolean isCurrent(final File target)
    {
        return isSame(target, file);
    }

    private static boolean isSame(final File a, final File b)
    {
        return a == b || a.equals(b);
    }

    private void requireFree(final long bytes)
    {
        requireFree(space, directory, bytes, reserve);
    }

    private static void requireFree(final DiskSpace space, final Path directory, final long bytes, final long reserve)
    {
        final long usable;
        try
        {
            usable = space.usableBytes(Files.exists(directory) ? directory : directory.toAbsolutePath().getParent());
        }
        catch (final IOException ex)
        {
            throw new LogWriteException("Cannot query the free space of " + directory + ": " + ex, ex);
        }
        if (usable < bytes + reserve)
        {
            throw new LogWriteException("Disk full: " + directory + " has " + usable + " bytes usable; need " + bytes +
                " plus the reserve of " + reserve);
        }
    }

    /**
     * The position the appender writes next in {@code target}, found by walking Chronicle's headers
     * (index arrays, padding) from the end of its last excerpt, or -1 if the file is finished.
     */
    private static long writePosition(final File target, final long from)
    {
        try
        {
            final QueueFileWalk walk = new QueueFileWalk().walk(target.toPath(), from);
            return walk.end() == QueueFileWalk.End.FINISHED ? -1 : walk.position();
        }
        catch (final IOException ex)
        {
            throw new LogCorruptedException("Cannot read " + target + ": " + ex, ex);
        }
    }

    private void closeChannel()
    {
        if (channel != null)
        {
            try
            {
                channel.close();
            }
            catch (final IOException ignored)
            {
                // The claimed space stays claimed; nothing else depends on the descriptor.
            }
            channel = null;
            file = null;
            claimedEnd = -1;
            claimedFile = null;
        }
    }
}
