package io.ringwatch.engine.internal.read;

import io.ringwatch.engine.errors.CompactedException;
import io.ringwatch.engine.spi.History;
import io.ringwatch.engine.spi.HistoryReader;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.kv.RangeResult;
import io.ringwatch.ringbuffer.EventRecord;

import java.util.List;

/**
 * Reads a range as it was at a past revision A: a consistent read of the present at revision R,
 * then the history from A + 1 to R, in which the first change of each key in the range carries
 * that key's state at A (its previous key-value, or none if the change created it). Costs
 * O(R - A) history reads and allocates the result, packed like a present read's (the present's
 * arena and addresses taken over, not copied, and the pre-images appended to them). Any thread.
 */
public final class HistoricalReader
{
    private final RangeReader present;
    private final History history;

    /**
     * @param present reads the present consistently.
     * @param history the revisions the reader can go back through.
     */
    public HistoricalReader(final RangeReader present, final History history)
    {
        this.present = present;
        this.history = history;
    }

    /**
     * @param range      the keys.
     * @param limit      the most key-values to return; 0 for all.
     * @param atRevision the revision to read at, at most the present one.
     * @return the key-values at {@code atRevision}, in key order, with that revision.
     * @throws CompactedException if the history no longer reaches back to {@code atRevision}, or
     *                            (in memory) the window overwrote it while it was read.
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
        try (HistoryReader reader = history.newReader())
        {
            if (!reader.seek(atRevision + 1))
            {
                throw new CompactedException(atRevision, history.firstRevision() - 1);
            }
            while (next(reader, change, atRevision) && change.revision() <= now.revision())
            {
                if (range.contains(change.key(), change.keyLength()))
                {
                    // A key's first change after A carries its state at A; later ones lose the merge.
                    result.addPreImage(change.key(), 0, change.keyLength(), change.prevValue(), 0,
                        change.hasPrev() ? change.prevValueLength() : -1,
                        change.prevCreateRevision(), change.prevModRevision(), change.prevVersion(), change.prevLease());
                }
            }
        }
        return result.build(atRevision, limit);
    }

    /** Reads the next change; a window that overwrote it while read no longer reaches back that far. */
    private boolean next(final HistoryReader reader, final EventRecord change, final long atRevision)
    {
        try
        {
            return reader.next(change);
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
