package io.ringwatch.engine.internal.read;

import io.ringwatch.engine.errors.CompactedException;
import io.ringwatch.engine.errors.HistoryLostException;
import io.ringwatch.engine.errors.RingWatchException;
import io.ringwatch.engine.spi.History;
import io.ringwatch.engine.spi.HistoryGapException;
import io.ringwatch.engine.spi.HistoryReader;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.kv.RangeResult;
import io.ringwatch.ringbuffer.EventRecord;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Reads a range as it was at a past revision A: a consistent read of the present at revision R,
 * then the history from A + 1 to R, in which the first change of each key in the range carries
 * that key's state at A (its previous key-value, or none if the change created it). A history
 * that ends before R (an ASYNC revision log behind the writer) is waited for: every change up to R
 * must be undone, or the read would return states newer than A. Costs
 * O(R - A) history reads and allocates the result, packed like a present read's (the present's
 * arena and addresses taken over, not copied, and the pre-images appended to them): one pre-image
 * per key changed in the range since A, however often it changed ({@link FirstChanges}), and a
 * copy of each such key. Any thread.
 */
public final class HistoricalReader
{
    /**
     * How long a read waits for the history to reach the revision it pinned: an ASYNC journal lags
     * the writer by up to the write ring, a nap and its backlog (milliseconds).
     */
    static final Duration HISTORY_LAG_WAIT = Duration.ofSeconds(10);
    private static final long HISTORY_POLL_NANOS = 50_000;

    private final RangeReader present;
    private final History history;
    private final BooleanSupplier onAppendingThread;

    /**
     * @param present           reads the present consistently.
     * @param history           the revisions the reader can go back through.
     * @param onAppendingThread whether the caller runs on the thread that appends the history (a
     *                          write's completion on the journal stage), which must not wait for it.
     */
    public HistoricalReader(final RangeReader present, final History history, final BooleanSupplier onAppendingThread)
    {
        this.present = present;
        this.history = history;
        this.onAppendingThread = onAppendingThread;
    }

    /**
     * @param range      the keys.
     * @param limit      the most key-values to return; 0 for all.
     * @param atRevision the revision to read at, at most the present one.
     * @return the key-values at {@code atRevision}, in key order, with that revision.
     * @throws CompactedException if the history no longer reaches back to {@code atRevision}, or
     *                            (in memory) the window overwrote it while it was read.
     * @throws HistoryLostException if revisions after {@code atRevision} are missing from the middle
     *                            of the revision log.
     * @throws RingWatchException if the history does not reach the present revision within
     *                            {@link #HISTORY_LAG_WAIT} (a stalled or failed journal), or at once
     *                            where it would have to wait on the thread that appends it.
     */
    public RangeResult range(final KeyRange range, final int limit, final long atRevision)
    {
        final RangeResult now = present.range(range, 0);
        if (atRevision >= now.revision())
        {
            return limit(now.kvs(), limit, now.revision());
        }
        // A RangeReader's result is always packed, and this one is ours alone: take it back without a copy.
        final ReadResultBuilder result = ((PackedKeyValues)now.kvs()).handOverToPastRevision();
        final EventRecord change = new EventRecord();
        final FirstChanges firstChanges = new FirstChanges();
        try (HistoryReader reader = history.newReader())
        {
            if (!seek(reader, atRevision))
            {
                throw new CompactedException(atRevision, history.firstRevision() - 1);
            }
            long deadline = 0;
            while (true)
            {
                if (!next(reader, change, atRevision))
                {
                    // An ASYNC log may not have appended up to the present yet: every change after A must be undone.
                    if (reader.lastRevision() >= now.revision())
                    {
                        break;
                    }
                    if (onAppendingThread.getAsBoolean())
                    {
                        throw new RingWatchException("a read at a past revision inside a write's completion would wait for " +
                            "the journal thread it runs on to append revision " + now.revision() +
                            ": chain it with the *Async variants of CompletableFuture");
                    }
                    deadline = awaitHistory(deadline, now.revision(), reader.lastRevision());
                    continue;
                }
                if (change.revision() > now.revision())
                {
                    break;
                }
                // A key's first change after A carries its state at A; later ones would lose the merge.
                if (range.contains(change.key(), change.keyLength()) && firstChanges.isFirst(change.key(), change.keyLength()))
                {
                    result.addPreImage(change.key(), 0, change.keyLength(), change.prevValue(), 0,
                        change.hasPrev() ? change.prevValueLength() : -1,
                        change.prevCreateRevision(), change.prevModRevision(), change.prevVersion(), change.prevLease());
                }
            }
        }
        return result.build(atRevision, limit);
    }

    /**
     * Waits a moment for the history to reach the present: a revision log behind the writer (an
     * ASYNC journal napping) appends it soon.
     *
     * @return the deadline, set on the first call.
     * @throws RingWatchException if the history has not reached the present within {@link #HISTORY_LAG_WAIT}.
     */
    private static long awaitHistory(final long deadline, final long present, final long reached)
    {
        final long now = System.nanoTime();
        if (deadline == 0)
        {
            return now + HISTORY_LAG_WAIT.toNanos();
        }
        if (now - deadline >= 0)
        {
            throw new RingWatchException("the revision log has not reached revision " + present + " within " +
                HISTORY_LAG_WAIT.toSeconds() + " s (read up to " + reached + "): the journal has stalled or failed");
        }
        LockSupport.parkNanos(HISTORY_POLL_NANOS);
        return deadline;
    }

    /** Positions the reader after {@code atRevision}; a gap in the history there is lost history, not compaction. */
    private static boolean seek(final HistoryReader reader, final long atRevision)
    {
        try
        {
            return reader.seek(atRevision + 1);
        }
        catch (final HistoryGapException gap)
        {
            throw new HistoryLostException(atRevision, gap.missingFrom(), gap.missingTo(), gap);
        }
    }

    /**
     * Reads the next change; a window that overwrote it while read no longer reaches back that far,
     * and a gap in the log is lost history.
     */
    private boolean next(final HistoryReader reader, final EventRecord change, final long atRevision)
    {
        try
        {
            return reader.next(change);
        }
        catch (final HistoryGapException gap)
        {
            throw new HistoryLostException(atRevision, gap.missingFrom(), gap.missingTo(), gap);
        }
        catch (final IllegalStateException lapped)
        {
            throw new CompactedException(atRevision, history.firstRevision() - 1);
        }
    }

    private static RangeResult limit(final List<KeyValue> kvs, final int limit, final long revision)
    {
        if (limit > 0 && kvs.size() > limit)
        {
            return new RangeResult(revision, List.copyOf(kvs.subList(0, limit)), true);
        }
        return new RangeResult(revision, kvs, false);
    }
}
