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
    }

    /**
     * @return the compaction point, 0 when never compacted.
     */
    long revision()
    {
        return revision;
    }

    /**
     * Moves the compaction point to {@code revision}.
     *
     * @param revision the new compaction point.
     * @throws EngineClosedException   if the engine is closed.
     * @throws InvalidRequestException if it is not positive.
     * @throws FutureRevisionException if it is beyond the current revision.
     * @throws CompactedException      if it is not beyond the current compaction point.
     */
    void compact(final long revision)
    {
        synchronized (gate)
        {
            gate.requireOpen();
            if (revision <= 0)
            {
                throw new InvalidRequestException("compact revision must be positive: " + revision);
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
