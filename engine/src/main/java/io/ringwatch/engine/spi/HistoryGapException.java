package io.ringwatch.engine.spi;

/**
 * A {@link HistoryReader} met revisions missing from the middle of the history (a revision log's
 * cycle file deleted or lost while older ones are still there): the history there is lost, not
 * compacted, and a watcher that needed it is cancelled
 * {@link io.ringwatch.engine.watch.CancelReason#HISTORY_LOST}, with this as the cause. Thrown on the
 * reader's thread by {@link HistoryReader#seek} or {@link HistoryReader#next}; allocates only when thrown.
 */
public class HistoryGapException extends IllegalStateException
{
    private static final long serialVersionUID = 1L;

    private final long missingFrom;
    private final long missingTo;

    /**
     * @param missingFrom the first revision missing.
     * @param missingTo   the last revision missing: the history goes on at the one after it.
     * @param message     what is missing and where, for a person.
     * @param cause       the storage's own failure, or null.
     */
    public HistoryGapException(final long missingFrom, final long missingTo, final String message, final Throwable cause)
    {
        super(message, cause);
        this.missingFrom = missingFrom;
        this.missingTo = missingTo;
    }

    /**
     * @return the first revision missing. Any thread; no allocation.
     */
    public long missingFrom()
    {
        return missingFrom;
    }

    /**
     * @return the last revision missing: the history goes on at the one after it. Any thread; no allocation.
     */
    public long missingTo()
    {
        return missingTo;
    }
}
