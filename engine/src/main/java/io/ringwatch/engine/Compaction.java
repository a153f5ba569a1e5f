package io.ringwatch.engine;

import io.ringwatch.engine.errors.CompactedException;
import io.ringwatch.engine.errors.EngineClosedException;
import io.ringwatch.engine.errors.FutureRevisionException;
import io.ringwatch.engine.errors.InvalidRequestException;
import io.ringwatch.engine.spi.Journal;
import io.ringwatch.engine.internal.write.RevisionCursor;

/**
 * The engine's compaction point: watches and historical reads may not start before it. Set by
 * {@link #compact(long)} (through the journal first, when there is one) and read lock-free by
 * any thread.
 *
 * <p>Compactions are serialised with each other and with close on the {@link ReadGate}'s monitor.
 * Allocation: none.
 */
final class Compaction
{
    private final ReadGate gate;
    private final RevisionCursor cursor;
    private final Journal journal;
    private volatile long revision;
    /** Whether a compaction at 0 was taken while the point was 0 (etcd's mark is then 0, not -1). */
    private volatile boolean compactedAtZero;

    /**
     * @param gate    the engine's gate: no compaction once it is closed.
     * @param cursor  the applied revision, which a compaction may not pass.
     * @param journal the revision log to compact too, or null in memory.
     */
    Compaction(final ReadGate gate, final RevisionCursor cursor, final Journal journal)
    {
        this.gate = gate;
        this.cursor = cursor;
        this.journal = journal;
        this.revision = journal == null ? 0 : journal.compactRevision();
        this.compactedAtZero = journal != null && journal.compactedAtZero();
    }

    /**
     * @return the compaction point, 0 when never compacted.
     */
    long revision()
    {
        return revision;
    }

    /**
     * @return etcd's compaction mark (its compactMainRev): -1 when never compacted, 0 after a
     *         compaction at 0, else the compaction point.
     */
    long mark()
    {
        final long point = revision;
        return point > 0 ? point : compactedAtZero ? 0 : -1;
    }

    /**
     * Moves the compaction point to {@code revision}; 0, taken once on a store never compacted,
     * moves only etcd's mark from -1 to 0 (through the journal first, so it survives a restart).
     *
     * @param revision the new compaction point.
     * @throws EngineClosedException   if the engine is closed.
     * @throws InvalidRequestException if it is negative.
     * @throws FutureRevisionException if it is beyond the current revision.
     * @throws CompactedException      if it is not beyond the current mark.
     */
    void compact(final long revision)
    {
        synchronized (gate)
        {
            gate.requireOpen();
            if (revision < 0)
            {
                throw new InvalidRequestException("compact revision must not be negative: " + revision);
            }
            if (revision == 0 && mark() < 0)
            {
                if (journal != null)
                {
                    journal.compact(0);
                }
                compactedAtZero = true;
                return;
            }
            final long current = cursor.applied();
            if (revision > current)
            {
                throw new FutureRevisionException(revision, current);
            }
            if (revision <= this.revision)
            {
                throw new CompactedException(revision, this.revision);
            }
            if (journal != null)
            {
                journal.compact(revision);
            }
            this.revision = revision;
        }
    }

    /**
     * Refuses a historical read from before the compaction point.
     *
     * @param atRevision the revision a read asks for.
     * @throws CompactedException if it is before the compaction point.
     */
    void requireNotBefore(final long atRevision)
    {
        final long point = revision;
        if (atRevision < point)
        {
            throw new CompactedException(atRevision, point);
        }
    }
}
