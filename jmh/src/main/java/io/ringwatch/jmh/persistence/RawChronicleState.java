package io.ringwatch.jmh.persistence;

import io.ringwatch.jmh.engine.AckWindow;
import io.ringwatch.persistence.ChangeType;
import io.ringwatch.persistence.LogConfig;
import io.ringwatch.persistence.LogReader;
import io.ringwatch.persistence.RevisionLog;
import io.ringwatch.persistence.RevisionRecord;
import net.openhft.chronicle.bytes.BytesStore;
import net.openhft.chronicle.bytes.SyncMode;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.nio.file.Path;

/**
 * Baseline "raw chronicle": a bare Chronicle Queue (same roll cycle as the revision log's default)
 * taking {@code appender.writeBytes} of one fixed blob per write, the blob being the very bytes the
 * revision log encodes for one of the benchmark's puts (captured at set-up): the queue's cost for
 * the same excerpt size through its plain byte API, without the log's encoding, CRC, disk-space
 * check and retention (the log appends through the same {@code writeBytes}). SYNC builds the queue with
 * {@link SyncMode#SYNC} and syncs every {@link #syncEvery} appends, as {@link RawLogState} does.
 * <p>
 * Opened per iteration in a fresh directory after {@value LogWorkload#KEY_COUNT} writes (the size of
 * the engine's log after its key set), deleted after it. Used by one JMH worker thread;
 * {@link #append()} allocates nothing.
 */
@State(Scope.Thread)
public class RawChronicleState
{
    /** ASYNC, or SYNC with a sync every {@link #syncEvery} appends. */
    @Param({"ASYNC", "SYNC"})
    public LogConfig.Durability durability;

    /**
     * SYNC only: appends per sync (the group commit's size), at least 1; by default
     * {@value AckWindow#WINDOW}, the most the engine's producers leave unacknowledged.
     */
    @Param({"" + AckWindow.WINDOW})
    public int syncEvery;

    /**
     * The queue's mapping block size in MiB, or 0 (the default) for Chronicle's own (64 MiB): the
     * revision log maps {@link LogConfig#DEFAULT_BLOCK_SIZE} (16 MiB) by default; the engine's
     * parameter of the same name sets its log's, so {@code -p blockMiB=16,64} compares the two at one
     * mapping (the bare queue is slower at 16).
     */
    @Param({"0"})
    public int blockMiB;

    private Path directory;
    private BytesStore<?, ?> excerpt;
    private SingleChronicleQueue queue;
    private ExcerptAppender appender;
    private long appended;
    private int untilSync;

    /**
     * Captures the log's excerpt for one put, then opens the queue in a fresh directory and fills it
     * with the key set's worth of excerpts. The worker thread, before each iteration; allocates the
     * queue and the blob.
     *
     * @throws IllegalStateException if the queue does not store the blob at its full size.
     */
    @Setup(Level.Iteration)
    public void open()
    {
        directory = ScratchDirectory.create("raw-chronicle-");
        excerpt = BytesStore.nativeStoreFrom(logExcerptOfOnePut(directory.resolve("sample")));
        final SingleChronicleQueueBuilder builder = SingleChronicleQueueBuilder.binary(directory.resolve("queue"))
            .rollCycle(LogConfig.builder(directory).build().rollCycle())
            .syncMode(durability == LogConfig.Durability.SYNC ? SyncMode.SYNC : SyncMode.NONE);
        if (blockMiB > 0)
        {
            builder.blockSize(blockMiB * 1024L * 1024L);
        }
        queue = builder.build();
        appender = queue.createAppender();
        appended = 0;
        untilSync = SyncCount.check(syncEvery);
        for (int i = 0; i < LogWorkload.KEY_COUNT; i++)
        {
            append();
        }
        checkStoredLength();
    }

    /**
     * Appends the blob as one excerpt. Worker thread; allocates nothing.
     *
     * @return how many excerpts this iteration appended.
     */
    public long append()
    {
        appender.writeBytes(excerpt);
        if (--untilSync == 0)
        {
            untilSync = syncEvery;
            if (durability == LogConfig.Durability.SYNC)
            {
                appender.sync();
            }
        }
        return ++appended;
    }

    /**
     * Closes the queue, frees the blob and deletes the directory. The worker thread, after each iteration.
     */
    @TearDown(Level.Iteration)
    public void close()
    {
        try
        {
            appender.close();
            queue.close();
            excerpt.releaseLast();
        }
        finally
        {
            ScratchDirectory.delete(directory);
        }
    }

    private static byte[] logExcerptOfOnePut(final Path sampleDirectory)
    {
        final LogWorkload workload = new LogWorkload();
        try (RevisionLog log = RevisionLog.open(LogConfig.builder(sampleDirectory).build()))
        {
            log.beginRevision(2, System.currentTimeMillis() * 1_000_000L);
            log.appendChange(ChangeType.PUT, workload.keys(), 0, LogWorkload.KEY_BYTES,
                workload.value(), 0, LogWorkload.VALUE_BYTES, 1, 2, 2,
                workload.value(), 0, LogWorkload.VALUE_BYTES, 1, 1, 1);
            log.endRevision();
            try (LogReader reader = log.reader())
            {
                final RevisionRecord record = new RevisionRecord();
                if (!reader.next(record))
                {
                    throw new IllegalStateException("the sample revision was not read back");
                }
                final byte[] bytes = new byte[record.encodedLength()];
                record.encoded().getBytes(0, bytes);
                return bytes;
            }
        }
    }

    private void checkStoredLength()
    {
        try (ExcerptTailer tailer = queue.createTailer(); DocumentContext dc = tailer.readingDocument())
        {
            final long stored = dc.isPresent() ? dc.wire().bytes().readRemaining() : -1;
            if (stored != excerpt.readRemaining())
            {
                throw new IllegalStateException("the queue stored " + stored + " bytes of a " + excerpt.readRemaining() + "-byte blob");
            }
        }
    }
}
