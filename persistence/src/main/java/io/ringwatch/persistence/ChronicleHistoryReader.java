package io.ringwatch.persistence;

import io.ringwatch.engine.spi.HistoryGapException;
import io.ringwatch.engine.spi.HistoryReader;
import io.ringwatch.engine.spi.ReplayBatch;
import io.ringwatch.ringbuffer.EventRecord;
import io.ringwatch.ringbuffer.EventType;
import org.agrona.DirectBuffer;

import java.util.function.LongSupplier;

/**
 * Reads the revision log one change at a time for a catching-up watcher or recovery: a tailer
 * over whole revision excerpts, handing out their changes in order. A seek past the log's end
 * waits there until the log reaches it. Revisions missing from the middle of the log (a
 * {@link LogGapException}) fail {@link #seek} and {@link #next} with the engine's
 * {@link HistoryGapException}. One thread at a time; no allocation per change.
 */
final class ChronicleHistoryReader implements HistoryReader
{
    private final RevisionLog log;
    private final LongSupplier visibleRevision;
    private final LogReaderGate gate;
    private final LogReader reader;
    private final RevisionRecord record = new RevisionRecord();
    private int nextChange;
    private int changeCount;
    private long pendingSeek;
    private long lastRevision;

    ChronicleHistoryReader(final RevisionLog log, final LongSupplier visibleRevision, final LogReaderGate gate)
    {
        this.log = log;
        this.visibleRevision = visibleRevision;
        this.gate = gate;
        this.reader = log.reader();
    }

    @Override
    public boolean seek(final long revision)
    {
        nextChange = 0;
        changeCount = 0;
        pendingSeek = 0;
        if (!gate.enter())
        {
            // The log is closing: wait past its end, as for a revision not yet written, rather than
            // report the revision gone (the engine's close ends the watcher with its own reason).
            pendingSeek = revision;
            return true;
        }
        try
        {
            return seekInside(revision);
        }
        catch (final LogGapException gap)
        {
            throw lost(gap);
        }
        finally
        {
            gate.leave();
        }
    }

    private boolean seekInside(final long revision)
    {
        if (revision < log.firstRevision())
        {
            return false;
        }
        if (revision > readableRevision())
        {
            pendingSeek = revision;
            return true;
        }
        return reader.seek(revision);
    }

    /**
     * Copies the next change into {@code into}, inside the gate: nothing of the mapped log is
     * referenced once it returns. False once the log is closing.
     */
    @Override
    public boolean next(final EventRecord into)
    {
        if (!gate.enter())
        {
            return false;
        }
        try
        {
            return nextInside(into);
        }
        catch (final LogGapException gap)
        {
            throw lost(gap);
        }
        finally
        {
            gate.leave();
        }
    }

    private boolean nextInside(final EventRecord into)
    {
        if (!advance())
        {
            return false;
        }
        final ChangeView change = record.change(nextChange++);
        final DirectBuffer bytes = change.buffer();
        final EventType type = change.type() == ChangeType.PUT ? EventType.PUT : EventType.DELETE;
        into.set(record.revision(), type,
            bytes, change.keyOffset(), change.keyLength(),
            bytes, change.valueOffset(), change.valueLength(),
            change.createRevision(), change.version(),
            bytes, change.prevValueOffset(), change.prevValueLength(),
            change.prevCreateRevision(), change.prevModRevision(), change.prevVersion(),
            record.timestampNanos());
        into.leases(change.lease(), change.prevLease());
        lastRevision = record.revision();
        return true;
    }

    /**
     * Copies each change's key and state after it straight from the excerpt's copy into the batch
     * (the previous value, which replay never reads, is skipped), inside the gate once per batch.
     */
    @Override
    public boolean fill(final ReplayBatch into)
    {
        if (!gate.enter())
        {
            return false;
        }
        try
        {
            while (!into.isFull())
            {
                if (!advance())
                {
                    return false;
                }
                final ChangeView change = record.change(nextChange++);
                final long revision = record.revision();
                if (change.type() == ChangeType.PUT)
                {
                    into.addPut(revision, change.buffer(), change.keyOffset(), change.keyLength(),
                        change.valueOffset(), change.valueLength(),
                        change.lease(), change.createRevision(), revision, change.version());
                }
                else
                {
                    into.addDelete(revision, change.buffer(), change.keyOffset(), change.keyLength());
                }
                lastRevision = revision;
            }
            return true;
        }
        finally
        {
            gate.leave();
        }
    }

    /**
     * Makes the record hold an unread change, reading the next revision when the current one is
     * used up.
     *
     * @return false at the end of what may be read now.
     */
    private boolean advance()
    {
        while (nextChange >= changeCount)
        {
            if (pendingSeek != 0)
            {
                if (pendingSeek > readableRevision() || !reader.seek(pendingSeek))
                {
                    return false;
                }
                pendingSeek = 0;
            }
            if (!nextRevision())
            {
                return false;
            }
            if (record.revision() > visibleRevision.getAsLong())
            {
                // In the log but not durable yet (SYNC): come back to it once it is.
                pendingSeek = record.revision();
                return false;
            }
            nextChange = 0;
            changeCount = record.changeCount();
        }
        return true;
    }

    /**
     * Reads the next revision; one that retention deleted under this reader fails as the engine's
     * histories fail for history they no longer hold ({@link IllegalStateException}): a read at a
     * past revision reports it compacted, a watcher is cancelled.
     */
    private boolean nextRevision()
    {
        try
        {
            return reader.next(record);
        }
        catch (final LogCompactedException gone)
        {
            throw new IllegalStateException(gone.getMessage(), gone);
        }
    }

    /**
     * A watcher or a read meets a gap as the engine's histories report one: its cancellation names
     * the range lost. Recovery ({@link #fill}) lets the log's own exception through, so the open
     * fails with it.
     */
    private static HistoryGapException lost(final LogGapException gap)
    {
        return new HistoryGapException(gap.missingFrom(), gap.missingTo(), gap.getMessage(), gap);
    }

    private long readableRevision()
    {
        return Math.min(log.lastRevision(), visibleRevision.getAsLong());
    }

    @Override
    public long lastRevision()
    {
        // A skip stepped over at the end (an unclean reopen's) accounts for revisions that will never exist.
        return Math.max(lastRevision, reader.skippedTo());
    }

    @Override
    public void close()
    {
        // Once the log is closing, its close releases the tailer with the queue; closing it here
        // too would race with that.
        if (gate.enter())
        {
            try
            {
                reader.close();
            }
            finally
            {
                gate.leave();
            }
        }
    }
}
