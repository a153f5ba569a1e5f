package io.ringwatch.persistence;

import java.io.File;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;
import java.util.stream.Stream;

import net.openhft.chronicle.bytes.BytesStore;
import net.openhft.chronicle.bytes.PointerBytesStore;
import net.openhft.chronicle.bytes.SyncMode;
import net.openhft.chronicle.core.io.IORuntimeException;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.TailerDirection;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueStore;
import net.openhft.chronicle.wire.DocumentContext;

import org.agrona.DirectBuffer;

/**
 * The revision log: every applied revision as ONE Chronicle Queue excerpt (layout in
 * {@link ExcerptLayout}), with compaction, retention, snapshots and verification.
 * <p>
 * Threading: ONE writer thread calls {@link #appendRevision} (or {@link #beginRevision},
 * {@link #appendChange} and {@link #endRevision}), {@link #beginBatch}, {@link #endBatch},
 * {@link #flush}, {@link #compact}, {@link #skipTo},
 * {@link #enforceRetention} and {@link #close}; a snapshot thread may use {@link #snapshotWriter(long)}; any thread may call
 * {@link #reader()}, {@link #lastRevision()}, {@link #firstRevision()}, {@link #compactRevision()}
 * and {@link #retainFrom(long)}. Each {@link LogReader} is used by one thread at a time.
 * <p>
 * Allocation: begin/append/end/flush allocate nothing in steady state (the excerpt is built in a
 * reusable buffer that grows only for a revision larger than any before). Retention runs when the
 * queue rolls to a new cycle file and allocates while it lists and deletes files.
 * <p>
 * Durability: {@link LogConfig.Durability#SYNC} builds the queue with {@link SyncMode#SYNC} and makes
 * {@link #flush()} call the appender's {@code sync()}, which {@code msync(MS_SYNC)}s the mapped
 * store up to the write position (released chunks are msync'd by Chronicle as they are unmapped).
 * One flush per batch is a group commit. {@code ASYNC} leaves the pages to the OS.
 * <p>
 * Open: the directory is checked (not a directory, not writable, foreign files, bad or newer
 * metadata), then an existing log is opened READ-ONLY and read (first and last revision, the tail),
 * so a foreign, truncated or corrupt queue is refused with a typed exception and no byte changed.
 * Only then is the directory locked ({@link DirectoryLock}: one writable owner across processes
 * and inside a JVM; a second open gets {@link LogLockedException} naming the holder), the queue
 * reopened for writing and a torn last excerpt dropped ({@link TornTailRepair}) before the first
 * append. Read-only opens take no lock and work beside a live writer.
 * <p>
 * Unclean close: a writable open marks the metadata OPEN (forced) before it returns, and only a
 * clean {@link #close} clears the mark, after forcing the queue files written since the open and
 * only if no append or flush failed. {@link #closedCleanly()} tells the next writable open whether
 * the last writer got that far; after a kill -9, a crash or a failed append it did not, and an
 * owner that showed revisions before appending them (an ASYNC engine) calls {@link #skipTo} so that
 * no revision number someone may have seen is ever given to another change.
 * <p>
 * Disk space: {@link SpaceGuard} claims the pages the appender will touch before it touches them,
 * keeping {@link LogConfig#diskReserveBytes()} free, so a full disk fails an append with
 * {@link LogWriteException} (the log still ends at the last complete revision) rather than a SIGBUS
 * on a mapped page; readers convert a fault on a mapped page (a truncated file) into
 * {@link LogCorruptedException}.
 */
public final class RevisionLog implements AutoCloseable
{
    /** The start of the names of the threads a log opened without a prefix starts. */
    public static final String DEFAULT_THREAD_PREFIX = "ringwatch";

    private final LogConfig config;
    private final Path directory;
    private final SingleChronicleQueue queue;
    private final ExcerptAppender appender;
    private final RevisionEncoder encoder;
    private final int maxRevisionBytes;
    private final LogReader maintenance;
    private final RevisionRecord scratch = new RevisionRecord();
    /** A view of the encoder's sealed excerpt, handed to the appender; repointed per append. */
    private final PointerBytesStore excerpt = BytesStore.nativePointer();
    private final AppendClock clock;
    /** Between {@link #beginBatch} and {@link #endBatch}: the clock stays pinned across appends. */
    private boolean batchOpen;
    private final Object metadataLock = new Object();
    private final boolean sync;
    private final boolean closedCleanly;
    /** Set once an append or flush failed: the close then leaves the OPEN mark, as after a crash. */
    private boolean writeFailed;
    private int firstCycleWritten = Integer.MIN_VALUE;
    private final int droppedAtOpen;
    private final DirectoryLock lock;
    private final SpaceGuard space;
    private MetadataFile metadata;
    private int lastCycle = Integer.MIN_VALUE;
    private boolean closed;
    private volatile long lastRevision;
    private volatile long firstRevision;
    private volatile long compactRevision;
    private volatile boolean compactedAtZero;
    private volatile long snapshotRevision;
    private volatile long retainFrom = Long.MAX_VALUE;

    private RevisionLog(final LogConfig config, final MetadataFile metadata, final DirectoryLock lock, final String threadPrefix)
    {
        final boolean writable = lock != null;
        this.lock = lock;
        this.config = config;
        this.directory = config.directory();
        this.metadata = metadata;
        this.compactRevision = metadata.compactRevision();
        this.compactedAtZero = metadata.compactedAtZero();
        this.snapshotRevision = metadata.snapshotRevision();
        this.sync = writable && config.durability() == LogConfig.Durability.SYNC;
        this.clock = new AppendClock(config.clockMillis());
        final SingleChronicleQueueBuilder builder = queueBuilder(config, clock, writable)
            .syncMode(sync ? SyncMode.SYNC : SyncMode.NONE);
        SingleChronicleQueue opened = null;
        SpaceGuard guard = null;
        ExcerptAppender created = null;
        try
        {
            if (writable)
            {
                SpaceGuard.requireFree(config, 0);
            }
            opened = builder.build();
            if (!writable)
            {
                // A writable open is probed first (probe), which made the same check.
                QueueFileCheck.requireWhole(opened);
            }
            if (writable && opened.lastCycle() >= 0)
            {
                // Appends never go back to a cycle before the newest file, whatever the wall clock says.
                clock.holdAtLeast(opened.epoch() + (long)opened.lastCycle() * config.rollCycle().lengthInMillis());
            }
            final int maxBytes = (int)Math.min(config.maxRevisionBytes(), opened.overlapSize());
            droppedAtOpen = writable ? TornTailRepair.repair(opened, maxBytes) : 0;
            queue = opened;
            maintenance = new LogReader(opened, !writable);
            encoder = new RevisionEncoder(maxBytes);
            maxRevisionBytes = maxBytes;
            if (writable)
            {
                // etcd does not start on a WAL with a hole: neither does a writer over a log with a
                // cycle file missing from the middle (its history there is lost, not compacted).
                maintenance.requireContiguousCycles();
            }
            lastRevision = scanLastRevision();
            firstRevision = scanFirstRevision();
            if (writable)
            {
                guard = new SpaceGuard(opened, config.diskSpace(), directory, config.diskReserveBytes(),
                    config.claimAheadBytes(), threadPrefix + "-log-space");
                guard.claimAtOpen();
            }
            space = guard;
            created = writable ? opened.createAppender() : null;
            closedCleanly = !metadata.open();
            if (created != null)
            {
                // Opened on one thread, then used by the engine's writer thread only.
                created.singleThreadedCheckDisabled(true);
                // Forced before the open returns: whatever this writer does next, a kill leaves the mark.
                final MetadataFile marked = metadata.withOpen(true);
                marked.write(directory);
                this.metadata = marked;
            }
            appender = created;
        }
        catch (final RevisionLogException ex)
        {
            if (created != null)
            {
                created.close();
            }
            closeQuietly(guard, opened);
            throw ex;
        }
        catch (final RuntimeException | InternalError | AssertionError ex)
        {
            if (created != null)
            {
                created.close();
            }
            // InternalError: a fault on a mapped page, for example a queue file cut short;
            // AssertionError: Chronicle's own assertions (-ea) on such a file.
            closeQuietly(guard, opened);
            throw new LogCorruptedException("Cannot open the queue in " + directory +
                (ex instanceof Error ? " (a queue file is cut short or damaged): " : ": ") + ex, ex);
        }
    }

    /**
     * Opens (or creates) the log for writing. The calling thread; allocates the log and its buffers.
     *
     * @param config where and how.
     * @return the open log.
     * @throws LogDirectoryException if the directory cannot be used (nothing changed).
     * @throws LogLockedException    if another open log owns the directory (nothing changed).
     * @throws LogFormatException    if a newer format version wrote it (nothing changed).
     * @throws LogCorruptedException if the metadata or queue is corrupt (nothing changed); a
     *                               {@link LogGapException} if a cycle file is missing from the
     *                               middle of the log.
     * @throws LogWriteException     if the disk has less free space than the reserve, or the
     *                               metadata's OPEN mark or the lock file's holder line cannot be
     *                               written (then nothing stays open or locked).
     */
    public static RevisionLog open(final LogConfig config)
    {
        return open(config, DEFAULT_THREAD_PREFIX);
    }

    /**
     * Opens (or creates) the log for writing, naming the threads it starts after its owner. The
     * calling thread; allocates the log and its buffers.
     *
     * @param config       where and how.
     * @param threadPrefix the start of the name of every thread the log starts (its disk-space
     *                     thread is {@code <threadPrefix>-log-space}), e.g. the engine's name.
     * @return the open log.
     * @throws LogDirectoryException if the directory cannot be used (nothing changed).
     * @throws LogLockedException    if another open log owns the directory (nothing changed).
     * @throws LogFormatException    if a newer format version wrote it (nothing changed).
     * @throws LogCorruptedException if the metadata or queue is corrupt (nothing changed); a
     *                               {@link LogGapException} if a cycle file is missing from the
     *                               middle of the log.
     * @throws LogWriteException     if the disk has less free space than the reserve, or the
     *                               metadata's OPEN mark or the lock file's holder line cannot be
     *                               written (then nothing stays open or locked).
     */
    public static RevisionLog open(final LogConfig config, final String threadPrefix)
    {
        if (config == null)
        {
            throw new IllegalArgumentException("config must not be null");
        }
        if (threadPrefix == null || threadPrefix.isEmpty())
        {
            throw new IllegalArgumentException("thread prefix must not be null or empty");
        }
        final Path directory = config.directory();
        if (LogDirectory.inspect(directory, true) == null)
        {
            LogDirectory.createDirectory(directory);
        }
        else
        {
            probe(config);
        }
        final DirectoryLock lock = DirectoryLock.acquire(directory);
        try
        {
            // Inspected again under the lock: another process may have created the log meanwhile.
            MetadataFile metadata = LogDirectory.inspect(directory, true);
            if (metadata == null)
            {
                LogDirectory.create(directory);
                metadata = new MetadataFile(0, 0);
            }
            UnbornCycleFile.remove(directory.resolve(LogDirectory.QUEUE));
            final RevisionLog log = new RevisionLog(config, metadata, lock, threadPrefix);
            try
            {
                lock.recordHolder();
            }
            catch (final RuntimeException ex)
            {
                // Closed as after a failed write (the OPEN mark stays): it stops the disk-space
                // thread and unmaps the queue before the lock goes.
                log.writeFailed = true;
                log.close();
                throw ex;
            }
            return log;
        }
        catch (final RuntimeException ex)
        {
            lock.close();
            throw ex;
        }
    }

    /**
     * Reads everything the writable open will read, through read-only mappings, so a corrupt or
     * foreign queue is refused before any byte changes. A read-only mapping cannot grow the file, so
     * reading a torn tail's garbage length can fail where the writable open (which repairs it)
     * would not: as a fault on a page past the file's end, or, where the file system refuses such a
     * mapping, as Chronicle's failure to acquire it. Either is accepted only when the last queue
     * file really ends in a torn header.
     */
    private static void probe(final LogConfig config)
    {
        final Path directory = config.directory();
        final Path queueDirectory = directory.resolve(LogDirectory.QUEUE);
        if (UnbornCycleFile.find(queueDirectory) != null)
        {
            // A cycle file a writer died creating, which Chronicle cannot open over (a read-only
            // tailer waits for its header for seconds, then fails): the writable open deletes it
            // under the lock and then reads the rest, so only that empty file changes before it.
            return;
        }
        final MetadataFile metadata = LogDirectory.inspect(directory, false);
        try (SingleChronicleQueue queue = queueBuilder(config, new AppendClock(config.clockMillis()), false).build())
        {
            if (QueueFileCheck.requireWhole(queue))
            {
                // A writer died inside its last header: reading past it through read-only mappings
                // could fault; the writable open repairs it under the lock, then reads the log.
                return;
            }
        }
        catch (final RuntimeException ex)
        {
            if (ex instanceof RevisionLogException)
            {
                throw ex;
            }
            throw new LogCorruptedException("Cannot open the queue in " + directory + ": " + ex, ex);
        }
        final RevisionLog probed = new RevisionLog(config, metadata, null, DEFAULT_THREAD_PREFIX);
        try
        {
            probed.maintenance.requireContiguousCycles();
        }
        finally
        {
            probed.close();
        }
    }

    private static SingleChronicleQueueBuilder queueBuilder(final LogConfig config, final AppendClock clock,
        final boolean writable)
    {
        final SingleChronicleQueueBuilder builder = SingleChronicleQueueBuilder
            .binary(config.directory().resolve(LogDirectory.QUEUE))
            .rollCycle(config.rollCycle())
            .timeProvider(clock)
            .readOnly(!writable);
        builder.blockSize(config.blockSize());
        return builder;
    }

    private static boolean endsInTornHeader(final Path queueDirectory)
    {
        try (Stream<Path> files = Files.list(queueDirectory))
        {
            final Path last = files.filter(f -> f.getFileName().toString().endsWith(".cq4")).max(Path::compareTo).orElse(null);
            return last != null && new QueueFileWalk().walk(last, 0).end() == QueueFileWalk.End.TORN;
        }
        catch (final IOException ex)
        {
            throw new LogDirectoryException("Cannot read " + queueDirectory + ": " + ex, ex);
        }
    }

    /**
     * Opens an existing log for reading only, for the replay tool: appends throw, nothing on disk is
     * changed (a torn tail is skipped by readers rather than repaired). The calling thread.
     *
     * @param directory the data directory.
     * @return the open, read-only log.
     * @throws LogDirectoryException if the directory is not an existing log.
     * @throws LogFormatException    if a newer format version wrote it.
     * @throws LogCorruptedException if the metadata or queue is corrupt.
     */
    public static RevisionLog openReadOnly(final Path directory)
    {
        final LogConfig config = LogConfig.builder(directory).build();
        final MetadataFile metadata = LogDirectory.inspect(directory, false);
        if (metadata == null)
        {
            throw new LogDirectoryException(directory + " holds no revision log");
        }
        return new RevisionLog(config, metadata, null, DEFAULT_THREAD_PREFIX);
    }

    /**
     * Starts revision {@code revision}. Writer thread; no allocation.
     *
     * @param revision       must be {@link #lastRevision()} + 1, or any positive value for an empty log.
     * @param timestampNanos when the writer applied it.
     * @throws IllegalArgumentException if the revision is out of sequence.
     * @throws IllegalStateException    if a revision is already begun, or the log is read-only or closed.
     */
    public void beginRevision(final long revision, final long timestampNanos)
    {
        checkWritable();
        if (encoder.isOpen())
        {
            throw new IllegalStateException("revision " + encoder.revision() + " is still open; end it first");
        }
        checkNext(revision);
        encoder.begin(revision, timestampNanos);
    }

    /**
     * Appends a whole revision from changes already encoded in the per-change layout of
     * {@link ExcerptLayout} (little-endian, 61 fixed bytes, then key, value and previous value):
     * writes the header, copies the changes as they are, seals the excerpt with its CRC and
     * appends it, as {@link #beginRevision}, {@link #appendChange} per change and
     * {@link #endRevision} would, with the same disk-space claim and size cap. The changes are
     * trusted to be well formed (their producer validated them); only the framing is checked.
     * Writer thread; no allocation in steady state.
     *
     * @param revision       must be {@link #lastRevision()} + 1, or any positive value for an empty log.
     * @param timestampNanos when the writer applied it.
     * @param changes        holds the encoded changes.
     * @param offset         where the first change starts in {@code changes}.
     * @param length         the changes' total length in bytes.
     * @param changeCount    how many changes, at least 1.
     * @throws IllegalArgumentException if the revision is out of sequence, the framing is invalid,
     *                                  or the revision is over the size cap; nothing is written.
     * @throws IllegalStateException    if a revision is begun, or the log is read-only or closed.
     * @throws LogWriteException        if the queue cannot take the excerpt (for example a full
     *                                  disk); the revision is not in the log.
     */
    public void appendRevision(
        final long revision,
        final long timestampNanos,
        final DirectBuffer changes,
        final int offset,
        final int length,
        final int changeCount)
    {
        checkWritable();
        if (encoder.isOpen())
        {
            throw new IllegalStateException("revision " + encoder.revision() + " is still open; end it first");
        }
        checkNext(revision);
        if (changeCount < 1 || length < (long)changeCount * ExcerptLayout.CHANGE_FIXED_LENGTH)
        {
            throw new IllegalArgumentException("revision " + revision + " needs at least one change of at least " +
                ExcerptLayout.CHANGE_FIXED_LENGTH + " bytes each: " + changeCount + " changes in " + length + " bytes");
        }
        checkRange("changes", changes, offset, length, 1);
        write(revision, encoder.encode(revision, timestampNanos, changes, offset, length, changeCount));
    }

    /**
     * Adds one change to the open revision. Writer thread; no allocation in steady state.
     *
     * @param type               {@link ChangeType#PUT} or {@link ChangeType#DELETE}.
     * @param key                buffer holding the key.
     * @param keyOffset          key start.
     * @param keyLength          key length, at least 1.
     * @param value              buffer holding the new value (ignored when valueLength is 0).
     * @param valueOffset        value start.
     * @param valueLength        value length; 0 for a delete.
     * @param createRevision     post-state create revision (0 for a delete).
     * @param modRevision        post-state mod revision (0 for a delete).
     * @param version            post-state version (0 for a delete).
     * @param prevValue          buffer holding the previous value, or null.
     * @param prevOffset         previous value start.
     * @param prevLength         previous value length; 0 when absent.
     * @param prevCreateRevision previous create revision (0 when absent).
     * @param prevModRevision    previous mod revision (0 when absent).
     * @param prevVersion        previous version (0 when absent).
     * @throws IllegalArgumentException if an argument is invalid or the revision grows over the size
     *                                  cap; the change is not added, nothing is written, and the
     *                                  revision stays open ({@link #abortRevision()} drops it).
     * @throws IllegalStateException    if no revision is open.
     */
    public void appendChange(
        final byte type,
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength,
        final long createRevision, final long modRevision, final long version,
        final DirectBuffer prevValue, final int prevOffset, final int prevLength,
        final long prevCreateRevision, final long prevModRevision, final long prevVersion)
    {
        if (!encoder.isOpen())
        {
            throw new IllegalStateException("no revision is open; call beginRevision first");
        }
        if (!ChangeType.isValid(type))
        {
            throw new IllegalArgumentException("unknown change type " + type);
        }
        if (type == ChangeType.DELETE && valueLength != 0)
        {
            throw new IllegalArgumentException("a DELETE carries no value, got length " + valueLength);
        }
        checkRange("key", key, keyOffset, keyLength, 1);
        checkRange("value", value, valueOffset, valueLength, 0);
        checkRange("prevValue", prevValue, prevOffset, prevLength, 0);
        encoder.change(type, key, keyOffset, keyLength, value, valueOffset, valueLength, createRevision, modRevision,
            version, prevValue, prevOffset, prevLength, prevCreateRevision, prevModRevision, prevVersion);
    }

    /**
     * Writes the open revision as one excerpt. Writer thread; no allocation in steady state. When
     * the queue has rolled to a new cycle file, runs retention first (allocates, touches the disk).
     *
     * @throws IllegalStateException if no revision is open or it holds no change.
     * @throws LogWriteException     if the queue cannot take the excerpt (for example a full disk); the
     *                               revision is not in the log and the next begin must repeat it.
     */
    public void endRevision()
    {
        if (!encoder.isOpen())
        {
            throw new IllegalStateException("no revision is open; call beginRevision first");
        }
        final long revision = encoder.revision();
        final int length = encoder.finish();
        if (length == ExcerptLayout.HEADER_LENGTH)
        {
            throw new IllegalStateException("revision " + revision + " holds no change; it was discarded");
        }
        write(revision, length);
    }

    /**
     * Appends the sealed excerpt in the encoder's buffer, claiming its disk space first, with one
     * clock read for both ({@link AppendClock}), or none inside a batch ({@link #beginBatch}). Chronicle's {@code writeBytes} rather than a
     * {@code writingDocument()} context: opening a context re-reads the queue's write position and
     * scans Chronicle's index forward from its last entry to find the sequence number, on every
     * append, for a second appender that this log's lock rules out (a third of the journal thread's
     * samples at 200,000 writes/s went to the context's open and close); {@code writeBytes} writes
     * the same excerpt, a data document's header and then the bytes, and looks the sequence up only
     * when the write position moved under it.
     */
    private void write(final long revision, final int length)
    {
        final boolean pinHere = !batchOpen;
        if (pinHere)
        {
            clock.pin();
        }
        try
        {
            space.beforeAppend(appender, length);
            writeExcerpt(revision, length);
        }
        catch (final RuntimeException ex)
        {
            writeFailed = true;
            throw ex;
        }
        finally
        {
            if (pinHere)
            {
                clock.unpin();
            }
        }
        space.afterAppend(appender);
        lastRevision = revision;
        if (firstRevision == 0)
        {
            firstRevision = revision;
        }
        final int cycle = appender.cycle();
        if (firstCycleWritten == Integer.MIN_VALUE)
        {
            firstCycleWritten = cycle;
        }
        if (cycle != lastCycle)
        {
            final boolean rolled = lastCycle != Integer.MIN_VALUE;
            lastCycle = cycle;
            if (rolled)
            {
                enforceRetention();
            }
        }
    }

    private void writeExcerpt(final long revision, final int length)
    {
        try
        {
            excerpt.set(encoder.address(), length);
            appender.writeBytes(excerpt);
        }
        catch (final RuntimeException | InternalError ex)
        {
            // InternalError: the JVM's report of a fault on a mapped page (SIGBUS), e.g. a full tmpfs.
            throw new LogWriteException("Cannot append revision " + revision + " to " + queue.file() + ": " + ex, ex);
        }
    }

    /**
     * Starts a batch of appends that share one clock reading: the time is read here, once, and
     * every append until {@link #endBatch} picks its cycle file (and claims its disk space) by it,
     * instead of reading the clock per append (at 200,000 appends a second, about 5% of the
     * journal thread's CPU). Keep a batch short (what the caller has at hand, not a stream): an
     * append in it lands in the cycle of the time read here, so a batch that runs past a cycle
     * boundary rolls at its end. Writer thread; no allocation.
     *
     * @throws IllegalStateException if a batch is already open, or the log is read-only or closed.
     */
    public void beginBatch()
    {
        checkWritable();
        if (batchOpen)
        {
            throw new IllegalStateException("a batch is already open");
        }
        clock.pin();
        batchOpen = true;
    }

    /**
     * Ends the batch {@link #beginBatch} started: appends read the clock again, each for itself.
     * Does nothing when no batch is open. Writer thread; no allocation.
     */
    public void endBatch()
    {
        if (batchOpen)
        {
            batchOpen = false;
            clock.unpin();
        }
    }

    /**
     * Discards the open revision without writing anything, for example after {@link #appendChange}
     * refused a change that would take it over the size cap; the next {@link #beginRevision} may
     * start the same revision again. Writer thread; no allocation.
     *
     * @throws IllegalStateException if no revision is open.
     */
    public void abortRevision()
    {
        if (!encoder.isOpen())
        {
            throw new IllegalStateException("no revision is open");
        }
        encoder.abandon();
    }

    /**
     * SYNC: forces every excerpt appended so far to disk ({@code msync}) before returning; call once
     * per batch, then acknowledge the batch. ASYNC: does nothing. Writer thread; no allocation.
     *
     * @throws LogWriteException if the sync fails.
     */
    public void flush()
    {
        checkWritable();
        if (!sync)
        {
            return;
        }
        try
        {
            appender.sync();
        }
        catch (final RuntimeException ex)
        {
            writeFailed = true;
            throw new LogWriteException("Cannot sync " + queue.file() + ": " + ex, ex);
        }
    }

    /**
     * @return the bytes of the mapped log faulted in ahead of the appender by the space thread so far
     * (0 without one, or where the kernel cannot). Any thread; for tests.
     */
    long bytesPrefaulted()
    {
        return space == null ? 0 : space.bytesPrefaulted();
    }

    /**
     * The effective cap on one revision's encoded size: the configured
     * {@link LogConfig#maxRevisionBytes()}, or less where the queue's block size allows less. A
     * writer checks the encoded length of a whole revision ({@link #encodedHeaderLength()} plus
     * {@link #encodedChangeLength} per change) against it before applying anything, so that
     * {@link #appendChange} never refuses a change half way through a revision.
     * Any thread; no allocation.
     *
     * @return the most bytes one revision may encode to.
     */
    public int maxRevisionBytes()
    {
        return maxRevisionBytes;
    }

    /**
     * The encoded size of a revision's fixed header, to which {@link #encodedChangeLength} of each
     * change is added. Any thread; no allocation.
     *
     * @return the header's length in bytes.
     */
    public static int encodedHeaderLength()
    {
        return ExcerptLayout.HEADER_LENGTH;
    }

    /**
     * The encoded size of one change within a revision. Any thread; no allocation.
     *
     * @param keyLength       the key's length.
     * @param valueLength     the new value's length, 0 for a delete.
     * @param prevValueLength the previous value's length, 0 when there was none.
     * @return the bytes it adds to its revision.
     */
    public static long encodedChangeLength(final int keyLength, final int valueLength, final int prevValueLength)
    {
        return (long)ExcerptLayout.CHANGE_FIXED_LENGTH + keyLength + valueLength + prevValueLength;
    }

    /**
     * The newest revision in the log. Any thread; no allocation.
     *
     * @return the newest revision, 0 if the log is empty.
     */
    public long lastRevision()
    {
        return lastRevision;
    }

    /**
     * The oldest revision still retained. Any thread; no allocation.
     *
     * @return the oldest revision, 0 if the log is empty.
     */
    public long firstRevision()
    {
        return firstRevision;
    }

    /**
     * The first revision the log holds now, read from the first cycle file left: unlike
     * {@link #firstRevision()}, which a read-only open learns once, this sees a live writer's
     * retention. Any thread (own tailer); allocates a reader and a record.
     *
     * @return the first revision (a leading skip's first skipped one), 0 for an empty log.
     * @throws LogCorruptedException if the first excerpt cannot be read.
     */
    public long readFirstRevision()
    {
        final RevisionRecord record = new RevisionRecord();
        try (LogReader reader = reader())
        {
            final byte kind = reader.nextExcerpt(record);
            return kind == 0 ? 0 : kind == ExcerptLayout.KIND_SKIP ? reader.skippedFrom() : record.revision();
        }
    }

    /**
     * The compaction point recorded by {@link #compact(long)}. Any thread; no allocation.
     *
     * @return the compact revision, 0 if never compacted.
     */
    public long compactRevision()
    {
        return compactRevision;
    }

    /**
     * Whether {@link #compact(long)} recorded etcd's compaction at 0 (the log's compact revision
     * is then still 0, but etcd's compaction mark is 0 rather than -1). Any thread; no allocation.
     *
     * @return true once compacted at 0.
     */
    public boolean compactedAtZero()
    {
        return compactedAtZero;
    }

    /**
     * The revision of the newest committed snapshot. Any thread; no allocation.
     *
     * @return the snapshot revision, 0 if none.
     */
    public long snapshotRevision()
    {
        return snapshotRevision;
    }

    /**
     * How many torn excerpts the open dropped. Any thread; no allocation.
     *
     * @return 0 after a clean shutdown.
     */
    public int droppedAtOpen()
    {
        return droppedAtOpen;
    }

    /**
     * Records that history before {@code revision} is no longer needed by watchers (etcd's compact),
     * durably in the metadata file; 0, on a log never compacted, records only etcd's compaction at 0
     * ({@link #compactedAtZero()}). Files become deletable once retention also allows it. Writer
     * thread; allocates and writes the metadata file.
     *
     * @param revision the new compact revision.
     * @throws IllegalArgumentException if it is below the current compact revision or above the newest
     *                                  revision.
     * @throws LogWriteException        if the metadata cannot be written.
     */
    public void compact(final long revision)
    {
        checkWritable();
        if (revision < compactRevision || revision > lastRevision)
        {
            throw new IllegalArgumentException("compact revision " + revision + " must lie in [" + compactRevision +
                ", " + lastRevision + "]");
        }
        synchronized (metadataLock)
        {
            final MetadataFile updated = metadata.withCompactRevision(revision);
            updated.write(directory);
            metadata = updated;
            compactRevision = revision;
            compactedAtZero = updated.compactedAtZero();
        }
    }

    /**
     * Tells retention the oldest revision the engine still needs (for example the oldest revision an
     * unsynced watcher is reading). Any thread; no allocation; not persisted.
     *
     * @param revision the oldest revision to keep; {@code Long.MAX_VALUE} lifts the limit.
     */
    public void retainFrom(final long revision)
    {
        retainFrom = revision;
    }

    /**
     * Deletes whole old cycle files that the retention policy calls surplus and that lie entirely
     * below the safety bound min(compact revision, newest snapshot revision + 1, retainFrom). The
     * cycle being written is never deleted; readers inside a deleted file keep their mapping. Writer
     * thread; allocates.
     *
     * @return how many files were deleted.
     * @throws LogWriteException if a file cannot be deleted.
     */
    public int enforceRetention()
    {
        checkWritable();
        final RetentionPolicy policy = config.retention();
        if (!policy.deletesAnything())
        {
            return 0;
        }
        final long bound = Math.min(compactRevision, Math.min(snapshotRevision + 1, retainFrom));
        final int deleted = new RetentionSweep(queue, maintenance, policy, config.clockMillis().getAsLong())
            .run(bound, lastRevision);
        if (deleted > 0)
        {
            firstRevision = scanFirstRevision();
        }
        return deleted;
    }

    /**
     * Creates a reader with its own tailer, positioned at the start of the retained log. Any thread;
     * allocates the reader.
     *
     * @return the reader; close it when done.
     * @throws IllegalStateException if the log is closed.
     */
    public LogReader reader()
    {
        if (closed)
        {
            throw new IllegalStateException("the log is closed");
        }
        final LogReader reader = new LogReader(queue, lock == null);
        if (lock == null)
        {
            // A fresh tailer over a read-only queue whose listing names a deleted first file reads
            // nothing at all; toStart finds the first file left (a writable open refreshed the listing).
            reader.toStart();
        }
        return reader;
    }

    /**
     * Starts a snapshot of the index taken at {@code snapshotRevision}. On commit it becomes the
     * newest snapshot and older ones beyond the configured count are deleted. The snapshot leaves
     * twice {@link LogConfig#diskReserveBytes()} plus {@link LogConfig#claimAheadBytes()} of the
     * disk free for the log's appends: past that it fails instead. One snapshot at a time;
     * the snapshot thread; allocates the writer and its buffer.
     *
     * @param snapshotRevision the revision the scan starts at; at most {@link #lastRevision()}.
     * @return the writer.
     * @throws IllegalArgumentException if the revision is not positive, is above the newest revision
     *                                  or is not newer than the newest snapshot.
     */
    public SnapshotWriter snapshotWriter(final long snapshotRevision)
    {
        checkWritable();
        if (snapshotRevision <= 0 || snapshotRevision > lastRevision || snapshotRevision <= this.snapshotRevision)
        {
            throw new IllegalArgumentException("snapshot revision " + snapshotRevision + " must be positive, at most " +
                lastRevision + " and newer than " + this.snapshotRevision);
        }
        // Twice the reserve plus the claim-ahead distance: what the journal's next claims need while
        // the snapshot is written, which must not fail the log's appends for a snapshot it can do without.
        final long keepFree = 2 * config.diskReserveBytes() + config.claimAheadBytes();
        return new SnapshotWriter(directory.resolve(LogDirectory.SNAPSHOTS), snapshotRevision, this::snapshotCommitted,
            config.diskSpace(), keepFree);
    }

    /**
     * Opens the newest committed snapshot. Any thread; allocates the reader.
     *
     * @return the reader, or null if there is no snapshot.
     * @throws SnapshotCorruptedException if the newest snapshot fails its checks.
     */
    public SnapshotReader openLatestSnapshot()
    {
        final List<Long> revisions = SnapshotFiles.revisions(directory.resolve(LogDirectory.SNAPSHOTS));
        return revisions.isEmpty() ? null :
            SnapshotReader.open(SnapshotFiles.committed(directory.resolve(LogDirectory.SNAPSHOTS), revisions.get(0)));
    }

    /**
     * Whether the last queue file ends in an excerpt whose header is still marked not-complete: a
     * writer died inside it (a crash; the next writable open drops it) or is writing it right now.
     * Readers never see such an excerpt. For the replay tool; any thread; reads through plain file
     * reads from the end of the last complete excerpt; allocates a little.
     *
     * @return true if the log ends in an incomplete excerpt.
     * @throws LogCorruptedException if the last queue file cannot be read.
     */
    public boolean endsInIncompleteExcerpt()
    {
        File file = null;
        long end = 0;
        try (ExcerptTailer tailer = queue.createTailer())
        {
            tailer.direction(TailerDirection.BACKWARD).toEnd();
            try (DocumentContext dc = tailer.readingDocument())
            {
                if (dc.isPresent())
                {
                    end = dc.wire().bytes().readLimit();
                    file = tailer.currentFile();
                    dc.rollbackOnClose();
                }
            }
        }
        catch (final InternalError | AssertionError | IORuntimeException ex)
        {
            // As in LogReader: a fault on a mapped page or a refused mapping of a damaged file.
            throw new LogCorruptedException("Cannot read the end of the log in " + directory + ": " + ex, ex);
        }
        try
        {
            return file == null ? endsInTornHeader(directory.resolve(LogDirectory.QUEUE)) :
                new QueueFileWalk().walk(file.toPath(), end).end() == QueueFileWalk.End.TORN;
        }
        catch (final IOException ex)
        {
            throw new LogCorruptedException("Cannot read " + file + ": " + ex, ex);
        }
    }

    /**
     * Walks the whole retained log checking CRCs, layouts and that revisions are contiguous: each
     * revision follows the one before it, or a skip ({@link #skipTo}) that starts right after the
     * one before it and ends right before it. On a live log whose writer's retention deletes the
     * files ahead of the walk, the walk goes on at the first file left and counts what it could not
     * reach as {@link VerifyReport#trimmed()}, not as a problem; a gap with older files still
     * present (a cycle file removed from the middle) is a problem. For the replay tool; any thread
     * (own tailer); allocates little, reads everything.
     *
     * @return the report, with the first problem if any; its first and last revisions count the
     *         revisions skipped (the log accounts for them: they will never exist).
     */
    public VerifyReport verify()
    {
        return verify(revision -> { });
    }

    /**
     * {@link #verify()}, calling {@code afterRevision} with each revision checked (tests trim the
     * log there).
     */
    VerifyReport verify(final LongConsumer afterRevision)
    {
        long first = 0;
        long last = 0;
        long count = 0;
        long trimmed = 0;
        final RevisionRecord record = new RevisionRecord();
        try (LogReader reader = reader())
        {
            while (true)
            {
                final byte kind;
                try
                {
                    kind = reader.nextExcerpt(record);
                }
                catch (final LogCompactedException ex)
                {
                    // The reader left its file for a later one: retention deleted the files between
                    // (then nothing up to the last revision checked is retained any more), or one
                    // is missing from the middle of the log (then the older files are still there).
                    reader.toStart();
                    final byte restart = reader.nextExcerpt(record);
                    final long from = restart == ExcerptLayout.KIND_SKIP ? reader.skippedFrom() : record.revision();
                    if (restart == 0 || from <= last)
                    {
                        return new VerifyReport(first, last, count, droppedAtOpen, trimmed, "revision " + ex.revision() +
                            " is missing: the log goes on after revision " + (ex.revision() - 1) +
                            " at a later one while the file it is in is still there (a cycle file removed?)");
                    }
                    trimmed += from - last - 1;
                    last = restart == ExcerptLayout.KIND_SKIP ? reader.skippedTo() : from;
                    count += restart == ExcerptLayout.KIND_SKIP ? 0 : 1;
                    afterRevision.accept(last);
                    continue;
                }
                if (kind == 0)
                {
                    break;
                }
                final boolean skip = kind == ExcerptLayout.KIND_SKIP;
                final long from = skip ? reader.skippedFrom() : record.revision();
                if (last != 0 && from != last + 1)
                {
                    return new VerifyReport(first, last, count, droppedAtOpen, trimmed, (skip ? "a skip from revision " : "revision ") +
                        from + " follows " + last + " at queue index 0x" + Long.toHexString(reader.queueIndex() - 1));
                }
                if (first == 0)
                {
                    first = from;
                }
                last = skip ? reader.skippedTo() : from;
                count += skip ? 0 : 1;
                afterRevision.accept(last);
            }
        }
        catch (final RevisionLogException ex)
        {
            return new VerifyReport(first, last, count, droppedAtOpen, trimmed, ex.getMessage());
        }
        catch (final RuntimeException | InternalError | AssertionError ex)
        {
            // A fault on a mapped page (a queue file cut short), or Chronicle's assertions about one.
            return new VerifyReport(first, last, count, droppedAtOpen, trimmed, "unreadable after revision " + last + ": " + ex);
        }
        return new VerifyReport(first, last, count, droppedAtOpen, trimmed, null);
    }

    /**
     * Closes the queue and releases the directory's lock; readers created from this log must be
     * closed first. An open revision is discarded. A writable log that no append or flush failed
     * then forces the queue files appended to since the open (for an ASYNC log, as long as the
     * OS takes to write back what it still holds) and clears the OPEN mark ({@link #closedCleanly()}).
     * Writer thread; idempotent.
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
            if (space != null)
            {
                // First: its thread faults in pages of the appender's mapping, which closing unmaps.
                space.close();
            }
            // null: not a clean close (read-only, a failed write, or the files could not be listed).
            final List<File> written = appender != null && !writeFailed ? filesWrittenSinceOpen() : null;
            maintenance.close();
            if (appender != null)
            {
                appender.close();
            }
            queue.close();
            excerpt.releaseLast();
            if (written != null)
            {
                markClosedCleanly(written);
            }
        }
        finally
        {
            // The directory is released even if Chronicle failed to close cleanly.
            if (lock != null)
            {
                lock.close();
            }
        }
    }

    SingleChronicleQueue queue()
    {
        return queue;
    }

    /**
     * Whether the writer before this open closed the log cleanly: its close forced what it had
     * appended and cleared the OPEN mark. False after a kill -9, a crash, or a close after a failed
     * append or flush: an owner that showed revisions before they were appended may have shown
     * revisions the log does not hold. Any thread; no allocation.
     *
     * @return true for a new log and after a clean close; false for a read-only open of a log
     *         whose writer is open or did not close cleanly.
     */
    public boolean closedCleanly()
    {
        return closedCleanly;
    }

    /**
     * Makes revisions {@link #lastRevision()} + 1 to {@code revision} never exist, as etcd's
     * {@code etcdutl snapshot restore --bump-revision N --mark-compacted} does: appends one SKIP
     * excerpt for them, forces it to disk, and compacts at {@code revision}, so the next revision
     * appended is {@code revision + 1} and a read or watch from before {@code revision} is refused
     * as compacted. For an owner that may have shown revisions before appending them (an ASYNC
     * engine after {@link #closedCleanly()} said false): a client that saw one of the lost
     * revisions then relists instead of missing the different change given its number. Readers
     * step over the skip ({@link LogReader}); {@link #verify()} checks it. Writer (or opening)
     * thread; allocates a little, forces the queue file and writes the metadata.
     *
     * @param revision the last revision skipped: above {@link #lastRevision()}.
     * @throws IllegalArgumentException if it is not above {@link #lastRevision()}.
     * @throws IllegalStateException    if a revision is begun, or the log is read-only or closed.
     * @throws LogWriteException        if the skip cannot be appended or forced, or the metadata written.
     */
    public void skipTo(final long revision)
    {
        checkWritable();
        if (encoder.isOpen())
        {
            throw new IllegalStateException("revision " + encoder.revision() + " is still open; end it first");
        }
        final long from = lastRevision + 1;
        if (revision < from)
        {
            throw new IllegalArgumentException("cannot skip to revision " + revision + ": the log ends at " + lastRevision);
        }
        final boolean empty = firstRevision == 0;
        write(revision, encoder.encodeSkip(from, revision, config.clockMillis().getAsLong() * 1_000_000L));
        if (empty)
        {
            firstRevision = from;
        }
        try
        {
            force(appender.currentFile());
        }
        catch (final IOException ex)
        {
            writeFailed = true;
            throw new LogWriteException("Cannot force the skip to revision " + revision + " in " + queue.file() + ": " + ex, ex);
        }
        compact(revision);
    }

    /**
     * The queue files of the cycles appended to since the open (retention may have deleted the
     * first ones), while the queue is still open; null if they cannot be listed.
     */
    private List<File> filesWrittenSinceOpen()
    {
        final List<File> files = new ArrayList<>();
        if (firstCycleWritten == Integer.MIN_VALUE)
        {
            return files;
        }
        try
        {
            return listFiles(files, Math.max(firstCycleWritten, queue.firstCycle()), lastCycle);
        }
        catch (final RuntimeException ex)
        {
            return null;
        }
    }

    private List<File> listFiles(final List<File> files, final int firstCycle, final int lastCycle)
    {
        for (final Long cycle : queue.listCyclesBetween(firstCycle, lastCycle))
        {
            final SingleChronicleQueueStore store = queue.storeForCycle(cycle.intValue(), queue.epoch(), false, null);
            if (store != null)
            {
                try
                {
                    files.add(store.file());
                }
                finally
                {
                    queue.closeStore(store);
                }
            }
        }
        return files;
    }

    /**
     * A clean close: forces what this writer appended (an ASYNC log left it to the OS, and an OS
     * crash after a clean close must not lose what the mark says is there), then clears the OPEN
     * mark. Any failure leaves the mark, which only makes the next open skip.
     */
    private void markClosedCleanly(final List<File> written)
    {
        try
        {
            for (final File file : written)
            {
                force(file);
            }
            synchronized (metadataLock)
            {
                final MetadataFile cleared = metadata.withOpen(false);
                cleared.write(directory);
                metadata = cleared;
            }
        }
        catch (final IOException | RevisionLogException ex)
        {
            // The mark stays: the next writable open treats this close as unclean, which is safe.
        }
    }

    private static void force(final File file) throws IOException
    {
        if (file == null || !file.exists())
        {
            return;
        }
        try (FileChannel channel = FileChannel.open(file.toPath(), StandardOpenOption.WRITE))
        {
            channel.force(true);
        }
    }

    private void checkNext(final long revision)
    {
        final long last = lastRevision;
        if (revision <= 0 || (last != 0 && revision != last + 1))
        {
            throw new IllegalArgumentException("revision " + revision + " is out of sequence: the log ends at " + last);
        }
    }

    static void checkRange(final String name, final DirectBuffer buffer, final int offset, final int length, final int min)
    {
        if (length < min)
        {
            throw new IllegalArgumentException(name + " length " + length + " is below " + min);
        }
        if (length == 0)
        {
            return;
        }
        if (buffer == null)
        {
            throw new IllegalArgumentException(name + " buffer is null but length is " + length);
        }
        if (offset < 0 || (long)offset + length > buffer.capacity())
        {
            throw new IllegalArgumentException(name + " range [" + offset + ", " + ((long)offset + length) +
                ") is outside its buffer of capacity " + buffer.capacity());
        }
    }

    private void snapshotCommitted(final long revision)
    {
        synchronized (metadataLock)
        {
            if (revision > metadata.snapshotRevision())
            {
                final MetadataFile updated = metadata.withSnapshotRevision(revision);
                updated.write(directory);
                metadata = updated;
                snapshotRevision = revision;
            }
            SnapshotFiles.prune(directory.resolve(LogDirectory.SNAPSHOTS), config.snapshotsToKeep());
        }
    }

    private void checkWritable()
    {
        if (closed)
        {
            throw new IllegalStateException("the log is closed");
        }
        if (appender == null)
        {
            throw new IllegalStateException("the log was opened read-only");
        }
    }

    private long scanLastRevision()
    {
        return Math.max(0, maintenance.lastRevisionField());
    }

    /** The first revision the retained log accounts for: its first revision, or its first skip's first one. */
    private long scanFirstRevision()
    {
        maintenance.toStart();
        final boolean found = maintenance.next(scratch);
        if (maintenance.skips() > 0)
        {
            return maintenance.firstSkippedFrom();
        }
        return found ? scratch.revision() : 0;
    }

    private static void closeQuietly(final SpaceGuard guard, final SingleChronicleQueue queue)
    {
        if (guard != null)
        {
            guard.close();
        }
        if (queue != null)
        {
            queue.close();
        }
    }
}
