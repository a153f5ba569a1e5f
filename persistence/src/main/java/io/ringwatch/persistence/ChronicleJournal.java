package io.ringwatch.persistence;

import io.ringwatch.engine.spi.HistoryReader;
import io.ringwatch.engine.spi.Journal;
import io.ringwatch.engine.spi.LeaseSink;
import io.ringwatch.engine.spi.SnapshotOutput;
import io.ringwatch.engine.spi.SnapshotSink;
import io.ringwatch.ringbuffer.ChangeRecord;

import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The engine's {@link Journal} on the persistence module's Chronicle Queue {@link RevisionLog}:
 * one excerpt per revision, index snapshots beside it. Journal-thread methods allocate nothing per
 * change; readers are {@link ChronicleHistoryReader}s, each with its own tailer.
 */
public final class ChronicleJournal implements Journal
{

    private final RevisionLog log;
    private final LeaseFile leases;
    private final boolean sync;
    private final LogReaderGate readers = new LogReaderGate();
    private LongSupplier visibleRevision = () -> Long.MAX_VALUE;

    private ChronicleJournal(final RevisionLog log, final LeaseFile leases, final boolean sync)
    {
        this.log = log;
        this.leases = leases;
        this.sync = sync;
    }

    /**
     * Opens (or creates) the log in {@code config}'s directory, dropping a torn last excerpt.
     *
     * @param config       the log's directory, durability, roll cycle and retention.
     * @param threadPrefix the start of the names of the threads the log starts (the engine's name).
     * @return the journal, owning the log.
     * @throws io.ringwatch.persistence.RevisionLogException with a typed subclass when the
     * directory is unusable, foreign, corrupt or from a newer format.
     */
    public static ChronicleJournal open(final LogConfig config, final String threadPrefix)
    {
        final RevisionLog log = RevisionLog.open(config, threadPrefix);
        final LeaseFile leases;
        try
        {
            // After the log: its open checked (and locked) the directory first.
            leases = LeaseFile.open(config.directory(), true, log.lastRevision());
        }
        catch (final RuntimeException e)
        {
            log.close();
            throw e;
        }
        return new ChronicleJournal(log, leases, config.durability() == LogConfig.Durability.SYNC);
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
        return new ChronicleHistoryReader(log, visibleRevision, readers);
    }

    @Override
    public void appendRevision(final long revision, final long timestampMillis, final ChangeRecord changes)
    {
        log.appendRevision(revision, timestampMillis * 1_000_000L, changes.buffer(), 0, changes.length(), changes.count());
    }

    @Override
    public void beginBatch()
    {
        log.beginBatch();
    }

    @Override
    public void endBatch()
    {
        log.endBatch();
    }

    @Override
    public void flush()
    {
        // The lease log first: an end it holds is void without its revision, never the reverse.
        leases.force();
        log.flush();
    }

    @Override
    public void recordLeaseGrant(final long id, final long ttlSeconds)
    {
        leases.grant(id, ttlSeconds, log.lastRevision());
    }

    @Override
    public void recordLeaseRevoke(final long id, final long revision)
    {
        leases.revoke(id, revision != 0 ? revision : log.lastRevision());
    }

    @Override
    public void loadLeases(final LeaseSink into)
    {
        for (final Map.Entry<Long, long[]> lease : leases.live().entrySet())
        {
            into.lease(lease.getKey(), lease.getValue()[0]);
        }
    }

    @Override
    public long highestLeaseId()
    {
        return leases.highestId();
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
            into.expectEntries(snapshot.entryCount());
            final SnapshotEntry entry = new SnapshotEntry();
            while (snapshot.next(entry))
            {
                into.entry(entry.buffer(), 0, entry.keyLength(), entry.buffer(), entry.valueOffset(), entry.valueLength(),
                    entry.createRevision(), entry.modRevision(), entry.version(), entry.lease());
            }
            return snapshot.snapshotRevision();
        }
    }

    @Override
    public boolean keepsSnapshots()
    {
        return true;
    }

    @Override
    public long snapshotRevision()
    {
        return log.snapshotRevision();
    }

    @Override
    public SnapshotOutput newSnapshot(final long revision)
    {
        return log.snapshotWriter(revision);
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
    public boolean compactedAtZero()
    {
        return log.compactedAtZero();
    }

    @Override
    public boolean closedCleanly()
    {
        return log.closedCleanly();
    }

    @Override
    public void skipTo(final long revision)
    {
        log.skipTo(revision);
    }

    @Override
    public void close()
    {
        // Readers on threads the engine's close does not join may still be stepping through the
        // mapped log: let them out before it is unmapped.
        readers.shutAndAwaitEmpty();
        leases.close();
        log.close();
    }
}
