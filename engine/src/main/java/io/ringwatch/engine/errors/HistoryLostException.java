package io.ringwatch.engine.errors;

/**
 * A read at a past revision needed revisions that are missing from the middle of the history (a
 * revision log's cycle file deleted or lost while older ones are still there): they are lost, not
 * compacted, so reading again at the same revision fails the same way. An operator's problem:
 * restore the file, or read at a revision after {@link #missingTo()}. The watch counterpart is
 * {@link io.ringwatch.engine.watch.CancelReason#HISTORY_LOST}.
 */
public final class HistoryLostException extends RingWatchException
{
    private static final long serialVersionUID = 1L;

    private final long requestedRevision;
    private final long missingFrom;
    private final long missingTo;

    /**
     * @param requestedRevision the revision the caller asked to read at.
     * @param missingFrom       the first revision missing.
     * @param missingTo         the last revision missing.
     * @param cause             the history's own report of the gap.
     */
    public HistoryLostException(final long requestedRevision, final long missingFrom, final long missingTo, final Throwable cause)
    {
        super("cannot read at revision " + requestedRevision + ": revisions " + missingFrom + ".." + missingTo +
            " are missing from the revision log (a cycle file deleted or lost, not compacted); read at a revision after " +
            missingTo + " or restore the file", cause);
        this.requestedRevision = requestedRevision;
        this.missingFrom = missingFrom;
        this.missingTo = missingTo;
    }

    /**
     * @return the revision the caller asked to read at.
     */
    public long requestedRevision()
    {
        return requestedRevision;
    }

    /**
     * @return the first revision missing.
     */
    public long missingFrom()
    {
        return missingFrom;
    }

    /**
     * @return the last revision missing: the history goes on at the one after it.
     */
    public long missingTo()
    {
        return missingTo;
    }
}
