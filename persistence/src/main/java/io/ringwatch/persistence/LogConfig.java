package io.ringwatch.persistence;

import io.ringwatch.engine.spi.Journal;
import io.ringwatch.engine.spi.Persistence;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.function.LongSupplier;

import net.openhft.chronicle.queue.RollCycle;
import net.openhft.chronicle.queue.RollCycles;

/**
 * How to open a {@link RevisionLog}: the data directory, durability, roll cycle, retention and limits.
 * Immutable once built; any thread. Build with {@link #builder(Path)}.
 *
 * <p>Also the engine's {@link Persistence}: {@code RingWatchConfig.builder().persistence(logConfig)}
 * makes an engine record every revision in this log, recover from it and keep index snapshots
 * beside it.
 */
public final class LogConfig implements Persistence
{
    /**
     * When an append counts as done.
     */
    public enum Durability
    {
        /**
         * Acknowledge after the append: the excerpt is in the page cache and survives a process crash,
         * not a power loss. {@link RevisionLog#flush()} does nothing.
         */
        ASYNC,

        /**
         * Acknowledge only after {@link RevisionLog#flush()} returned: the mapped pages holding the
         * excerpts are forced to disk with {@code msync(MS_SYNC)}.
         */
        SYNC
    }

    /**
     * The default cap on one revision's encoded size.
     */
    public static final int DEFAULT_MAX_REVISION_BYTES = 4 * 1024 * 1024;

    /**
     * The default free space an append leaves on the file system (see {@link #diskReserveBytes()}).
     */
    public static final long DEFAULT_DISK_RESERVE_BYTES = 1024 * 1024;

    /**
     * The default distance disk space is claimed ahead of the appender, off its thread (see
     * {@link #claimAheadBytes()}).
     */
    public static final long DEFAULT_CLAIM_AHEAD_BYTES = 8 * 1024 * 1024;

    /**
     * The default mapping block size. Chronicle maps a queue file in blocks and unmaps each finished
     * block in one {@code munmap}; with Chronicle's own default (64 MiB, 80 MiB mapped with the
     * overlap) that call took 155 ms on the 2-core VM, and async-persistence p99 write-to-listener
     * at 200,000 writes/s was 23 to 36 ms against 3.0 to 3.8 ms with 16 MiB blocks, back to back.
     */
    public static final long DEFAULT_BLOCK_SIZE = 16 * 1024 * 1024;

    private static final long MIN_BLOCK_SIZE = 1024 * 1024;
    /** Two claim steps: the background thread claims in halves of the distance. */
    private static final long MIN_CLAIM_AHEAD_BYTES = 2 * 1024 * 1024;

    private final Path directory;
    private final Durability durability;
    private final RollCycle rollCycle;
    private final RetentionPolicy retention;
    private final LongSupplier clockMillis;
    private final int maxRevisionBytes;
    private final int snapshotsToKeep;
    private final long blockSize;
    private final long diskReserveBytes;
    private final long claimAheadBytes;
    private final DiskSpace diskSpace;

    private LogConfig(final Builder builder)
    {
        directory = builder.directory;
        durability = builder.durability;
        rollCycle = builder.rollCycle;
        retention = builder.retention;
        clockMillis = builder.clockMillis;
        maxRevisionBytes = builder.maxRevisionBytes;
        snapshotsToKeep = builder.snapshotsToKeep;
        blockSize = builder.blockSize;
        diskReserveBytes = builder.diskReserveBytes;
        claimAheadBytes = builder.claimAheadBytes;
        diskSpace = builder.diskSpace;
    }

    /**
     * Starts a configuration for the data directory {@code directory}. Any thread; allocates the builder.
     *
     * @param directory the data directory; created on open when absent.
     * @return a builder with defaults: ASYNC, daily cycles, keep everything, wall clock, 2 snapshots.
     * @throws IllegalArgumentException if {@code directory} is null.
     */
    public static Builder builder(final Path directory)
    {
        if (directory == null)
        {
            throw new IllegalArgumentException("directory must not be null");
        }
        return new Builder(directory);
    }

    /**
     * The data directory. Any thread; no allocation.
     *
     * @return the directory holding the metadata file, the queue and the snapshots.
     */
    public Path directory()
    {
        return directory;
    }

    /**
     * Opens (or creates) the log for one engine, dropping a torn last excerpt. The opening thread;
     * allocates the log.
     *
     * @param engineName the engine's name: the log's own threads start with it.
     * @return the engine's journal over the log, owning it.
     * @throws RevisionLogException with a typed subclass when the directory is unusable, locked by
     *                              another process, foreign, corrupt or from a newer format.
     */
    @Override
    public Journal openJournal(final String engineName)
    {
        return ChronicleJournal.open(this, engineName);
    }

    /**
     * Chronicle Queue's JVM flags for the running JDK ({@link ChronicleJvmFlags}), which the engine
     * checks at open. Any thread; allocates the list.
     *
     * @return the flags, in command-line form.
     */
    @Override
    public List<String> requiredJvmFlags()
    {
        return ChronicleJvmFlags.required();
    }

    /**
     * @return the log's directory and durability, as the engine's open log line shows them.
     */
    @Override
    public String toString()
    {
        return "the revision log in " + directory + " (" + durability + ")";
    }

    /**
     * The durability mode. Any thread; no allocation.
     *
     * @return when an append counts as done.
     */
    public Durability durability()
    {
        return durability;
    }

    /**
     * The Chronicle roll cycle: how much time one queue file covers. Any thread; no allocation.
     *
     * @return the roll cycle.
     */
    public RollCycle rollCycle()
    {
        return rollCycle;
    }

    /**
     * The retention policy. Any thread; no allocation.
     *
     * @return which old files may be deleted.
     */
    public RetentionPolicy retention()
    {
        return retention;
    }

    /**
     * The clock the queue rolls by and retention ages by. Any thread; no allocation.
     *
     * @return a supplier of epoch milliseconds.
     */
    public LongSupplier clockMillis()
    {
        return clockMillis;
    }

    /**
     * The cap on one revision's encoded size. Any thread; no allocation.
     *
     * @return the cap in bytes.
     */
    public int maxRevisionBytes()
    {
        return maxRevisionBytes;
    }

    /**
     * How many committed snapshots to keep. Any thread; no allocation.
     *
     * @return the count, at least 1.
     */
    public int snapshotsToKeep()
    {
        return snapshotsToKeep;
    }

    /**
     * The queue's mapping block size: the configured one, or by default {@value #DEFAULT_BLOCK_SIZE}
     * bytes, or more where {@link #maxRevisionBytes()} needs it (one revision may use at most a
     * quarter of a block). Any thread; no allocation.
     *
     * @return the block size in bytes, a power of two.
     */
    public long blockSize()
    {
        if (blockSize > 0)
        {
            return blockSize;
        }
        return Math.max(DEFAULT_BLOCK_SIZE, Long.highestOneBit(4L * maxRevisionBytes - 1) << 1);
    }

    /**
     * The free space an append must leave on the file system; an append that would eat into it fails
     * with {@link LogWriteException} instead of risking a fault on a memory-mapped page.
     *
     * @return bytes kept free.
     */
    public long diskReserveBytes()
    {
        return diskReserveBytes;
    }

    /**
     * How far ahead of the appender a background thread ({@code <engine name>-log-space}) claims disk
     * space, so that the appending thread finds its pages already backed and never writes the
     * claim's zeros itself while the disk is roomy. Near the reserve the background thread stops
     * and the appending thread claims exactly what each append needs, as with 0. Any thread; no
     * allocation.
     *
     * @return bytes claimed ahead of the write position; 0 when the appending thread claims every
     * step itself.
     */
    public long claimAheadBytes()
    {
        return claimAheadBytes;
    }

    /**
     * How the log queries and claims disk space; {@link DiskSpace#SYSTEM} unless a test injects faults.
     *
     * @return the disk space view.
     */
    public DiskSpace diskSpace()
    {
        return diskSpace;
    }

    /**
     * Builds a {@link LogConfig}. Not thread-safe; allocates the config on {@link #build()}.
     */
    public static final class Builder
    {
        private final Path directory;
        private Durability durability = Durability.ASYNC;
        private RollCycle rollCycle = RollCycles.FAST_DAILY;
        private RetentionPolicy retention = RetentionPolicy.keepAll();
        private LongSupplier clockMillis = System::currentTimeMillis;
        private int maxRevisionBytes = DEFAULT_MAX_REVISION_BYTES;
        private int snapshotsToKeep = 2;
        private long blockSize;
        private long diskReserveBytes = DEFAULT_DISK_RESERVE_BYTES;
        private long claimAheadBytes = DEFAULT_CLAIM_AHEAD_BYTES;
        private DiskSpace diskSpace = DiskSpace.SYSTEM;

        private Builder(final Path directory)
        {
            this.directory = directory;
        }

        /**
         * Sets the durability mode.
         *
         * @param durability ASYNC or SYNC.
         * @return this builder.
         */
        public Builder durability(final Durability durability)
        {
            this.durability = Objects.requireNonNull(durability, "durability");
            return this;
        }

        /**
         * Sets the roll cycle. It must stay the same for the life of a directory.
         *
         * @param rollCycle for example {@code RollCycles.FAST_DAILY} or a test cycle.
         * @return this builder.
         */
        public Builder rollCycle(final RollCycle rollCycle)
        {
            this.rollCycle = Objects.requireNonNull(rollCycle, "rollCycle");
            return this;
        }

        /**
         * Sets the retention policy.
         *
         * @param retention which old files may be deleted.
         * @return this builder.
         */
        public Builder retention(final RetentionPolicy retention)
        {
            this.retention = Objects.requireNonNull(retention, "retention");
            return this;
        }

        /**
         * Sets the clock; tests pass a controllable one.
         *
         * @param clockMillis a supplier of epoch milliseconds.
         * @return this builder.
         */
        public Builder clockMillis(final LongSupplier clockMillis)
        {
            this.clockMillis = Objects.requireNonNull(clockMillis, "clockMillis");
            return this;
        }

        /**
         * Sets the cap on one revision's encoded size.
         *
         * @param bytes at least 1 KiB.
         * @return this builder.
         */
        public Builder maxRevisionBytes(final int bytes)
        {
            if (bytes < 1024)
            {
                throw new IllegalArgumentException("maxRevisionBytes must be at least 1024: " + bytes);
            }
            this.maxRevisionBytes = bytes;
            return this;
        }

        /**
         * Sets how many committed snapshots to keep.
         *
         * @param count at least 1.
         * @return this builder.
         */
        public Builder snapshotsToKeep(final int count)
        {
            if (count < 1)
            {
                throw new IllegalArgumentException("snapshotsToKeep must be at least 1: " + count);
            }
            this.snapshotsToKeep = count;
            return this;
        }

        /**
         * Sets the queue's mapping block size; small values keep test files small.
         *
         * One revision may use at most a quarter of it (Chronicle's overlap between mapped chunks).
         *
         * @param bytes a power of two of at least 1 MiB, or 0 for the default ({@link LogConfig#blockSize()}).
         * @return this builder.
         */
        public Builder blockSize(final long bytes)
        {
            if (bytes != 0 && (bytes < MIN_BLOCK_SIZE || Long.bitCount(bytes) != 1))
            {
                throw new IllegalArgumentException("blockSize must be 0 or a power of two >= 1 MiB: " + bytes);
            }
            this.blockSize = bytes;
            return this;
        }

        /**
         * Sets the free space every append must leave on the file system (see
         * {@link LogConfig#diskReserveBytes()}).
         *
         * @param bytes zero or more.
         * @return this builder.
         */
        public Builder diskReserveBytes(final long bytes)
        {
            if (bytes < 0)
            {
                throw new IllegalArgumentException("diskReserveBytes must not be negative: " + bytes);
            }
            this.diskReserveBytes = bytes;
            return this;
        }

        /**
         * Sets how far ahead of the appender disk space is claimed off its thread (see
         * {@link LogConfig#claimAheadBytes()}).
         *
         * @param bytes 0 (the appending thread claims every step itself), or at least 2 MiB.
         * @return this builder.
         */
        public Builder claimAheadBytes(final long bytes)
        {
            if (bytes != 0 && bytes < MIN_CLAIM_AHEAD_BYTES)
            {
                throw new IllegalArgumentException("claimAheadBytes must be 0 or at least " + MIN_CLAIM_AHEAD_BYTES + ": " + bytes);
            }
            this.claimAheadBytes = bytes;
            return this;
        }

        /**
         * Sets how the log queries and claims disk space; tests inject a full disk with it.
         *
         * @param diskSpace the view to use.
         * @return this builder.
         */
        public Builder diskSpace(final DiskSpace diskSpace)
        {
            this.diskSpace = Objects.requireNonNull(diskSpace, "diskSpace");
            return this;
        }

        /**
         * Builds the configuration.
         *
         * @return the immutable configuration.
         */
        public LogConfig build()
        {
            return new LogConfig(this);
        }
    }
}
