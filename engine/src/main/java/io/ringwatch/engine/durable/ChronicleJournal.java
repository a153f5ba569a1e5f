package io.ringwatch.engine.durable;

import io.ringwatch.engine.history.HistoryReader;
import io.ringwatch.engine.history.Journal;
import io.ringwatch.engine.history.SnapshotSink;
import io.ringwatch.persistence.ChangeType;
import io.ringwatch.persistence.LogConfig;
import io.ringwatch.persistence.RevisionLog;
import io.ringwatch.persistence.SnapshotEntry;
import io.ringwatch.persistence.SnapshotReader;
import io.ringwatch.ringbuffer.EventType;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.function.LongSupplier;

/**
 * The engine's {@link Journal} on the persistence module's Chronicle Queue {@link RevisionLog}:
 * one excerpt per revision, index snapshots beside it. Journal-thread methods allocate nothing per
 * change; readers are {@link ChronicleHistoryReader}s, each with its own tailer.
 */
public final class ChronicleJournal implements Journal
{
    private static final UnsafeBuffer EMPTY = new UnsafeBuffer(new byte[0]);

    private final RevisionLog log;
    private final boolean sync;
    private long revision;
    private LongSupplier visibleRevision = () -> Long.MAX_VALUE;

    private ChronicleJournal(final RevisionLog log, final boolean sync)
    {
        this.log = log;
        this.sync = sync;
    }

    /**
     * Opens (or creates) the log in {@code config}'s directory, dropping a torn last excerpt.
     *
     * @param config the log's directory, durability, roll cycle and retention.
     * @return the journal, owning the log.
     * @throws io.ringwatch.persistence.RevisionLogException with a typed subclass when the
     * directory is unusable, foreign, corrupt or from a newer format.
     */
    public static ChronicleJournal open(final LogConfig config)
    {
        return new ChronicleJournal(RevisionLog.open(config), config.durability() == LogConfig.Durability.SYNC);
    }

    /**
     * @return the log, for snapshots and retention. The writer thread owns its append side.
     */
    public RevisionLog log()
    {
        return log;
    }

    @Override
    public long lastRevision()
    {
        return log.lastRevision();
    }

    @Override
    public long firstRevision()
    {
        return Math.max(1, log.firstRevision());
    }

    @Override
    public HistoryReader newReader()
    {
        return new ChronicleHistoryReader(log, visibleRevision);
    }

    @Override
    public void beginRevision(final long revision, final long timestampMillis)
    {
        this.revision = revision;
        log.beginRevision(revision, timestampMillis * 1_000_000L);
    }

    @Override
    public void appendChange(
        final EventType type,
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength,
        final long createRevision, final long version,
        final DirectBuffer prevValue, final int prevValueOffset, final int prevValueLength,
        final long prevCreateRevision, final long prevModRevision, final long prevVersion)
    {
        final boolean put = type == EventType.PUT;
        log.appendChange(put ? ChangeType.PUT : ChangeType.DELETE,
            key, keyOffset, keyLength,
            value == null ? EMPTY : value, value == null ? 0 : valueOffset, value == null ? 0 : valueLength,
            put ? createRevision : 0, put ? revision : 0, put ? version : 0,
            prevValue == null ? EMPTY : prevValue, prevValue == null ? 0 : prevValueOffset, prevValue == null ? 0 : prevValueLength,
            prevCreateRevision, prevModRevision, prevVersion);
    }

    @Override
    public void endRevision()
    {
        log.endRevision();
    }

    @Override
    public void flush()
    {
        log.flush();
    }

    @Override
    public boolean isSync()
    {
        return sync;
    }

    @Override
    public void limitReadersTo(final LongSupplier visibleRevision)
    {
        this.visibleRevision = visibleRevision;
    }

    @Override
    public long maxRevisionBytes()
    {
        return log.maxRevisionBytes();
    }

    @Override
    public long revisionHeaderBytes()
    {
        return RevisionLog.encodedHeaderLength();
    }

    @Override
    public long changeBytes(final int keyLength, final int valueLength, final int prevValueLength)
    {
        return RevisionLog.encodedChangeLength(keyLength, valueLength, prevValueLength);
    }

    @Override
    public long loadSnapshot(final SnapshotSink into)
    {
        try (SnapshotReader snapshot = log.openLatestSnapshot())
        {
            if (snapshot == null)
            {
                return 0;
            }
            final SnapshotEntry entry = new SnapshotEntry();
            while (snapshot.next(entry))
            {
                into.entry(entry.buffer(), 0, entry.keyLength(), entry.buffer(), entry.valueOffset(), entry.valueLength(),
                    entry.createRevision(), entry.modRevision(), entry.version());
            }
            return snapshot.snapshotRevision();
        }
    }

    @Override
    public void compact(final long revision)
    {
        log.compact(revision);
    }

    @Override
    public long compactRevision()
    {
        return log.compactRevision();
    }

    @Override
    public void close()
    {
        log.close();
    }
}
