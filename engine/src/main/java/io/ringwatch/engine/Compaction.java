package io.ringwatch.engine;

import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import io.ringwatch.engine.errors.CompactedException;
import io.ringwatch.engine.errors.EngineClosedException;
import io.ringwatch.engine.errors.FutureRevisionException;
import io.ringwatch.engine.errors.InvalidRequestException;
import io.ringwatch.engine.errors.RingWatchException;
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
    private final BooleanSupplier onJournalThread;
    private volatile long revision;
    /** Whether a compaction at 0 was taken while the point was 0 (etcd's mark is then 0, not -1). */
    private volatile boolean compactedAtZero;

    /**
     * @param gate    the engine's gate: no compaction once it is closed.
     * @param cursor  the applied revision, which a compaction may not pass.
     * @param journal the revision log to compact too, or null in memory.
     * @param onJournalThread whether the calling thread is the one that appends to the journal
     *                        (and completes writes), which must not wait for its own appends.
     */
    Compaction(final ReadGate gate, final RevisionCursor cursor, final Journal journal, final BooleanSupplier onJournalThread)
    {
        this.gate = gate;
        this.cursor = cursor;
        this.journal = journal;
        this.onJournalThread = onJournalThread;
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
     * @throws RingWatchException      inside a write's completion, for a revision the journal has
     *                                 not appended yet (it would wait for its own thread); or if the
     *                                 journal cannot record it (a full disk): nothing changed.
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
                awaitAppended(revision);
                try
                {
                    journal.compact(revision);
                }
                catch (final RingWatchException e)
                {
                    throw e;
                }
                catch (final RuntimeException e)
                {
                    // A full disk or an I/O error writing the log's metadata: nothing recorded, the
                    // point stays; the engine's own error type, as for every refused call.
                    throw new RingWatchException("cannot record the compaction at " + revision + " in the journal: " + e.getMessage(), e);
                }
            }
            this.revision = revision;
        }
    }

    /**
     * Waits until the journal holds {@code revision}: an ASYNC engine shows a revision before its
     * journal appends it, and a compactor compacting at the revision it last saw (etcd's and
     * Kubernetes' do) may name one the log does not hold yet, which the log cannot record. The
     * journal appends behind the writer within microseconds; a journal failure rolls the revision
     * back instead, and the compaction is then refused as one beyond the current revision.
     */
    private void awaitAppended(final long revision)
    {
        for (int step = 0; cursor.durable() < revision; step++)
        {
            final long applied = cursor.applied();
            if (applied < revision)
            {
                throw new FutureRevisionException(revision, applied);
            }
            if (onJournalThread.getAsBoolean())
            {
                throw new RingWatchException("a compaction inside a write's completion at revision " + revision +
                    ", which the journal has not appended yet, would wait for the thread it runs on: chain it with " +
                    "the *Async variants of CompletableFuture");
            }
            if (step < 100)
            {
                Thread.onSpinWait();
            }
            else
            {
                LockSupport.parkNanos(20_000);
            }
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
