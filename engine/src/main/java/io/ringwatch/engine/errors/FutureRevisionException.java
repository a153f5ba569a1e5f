package io.ringwatch.engine.errors;

/**
 * The revision asked for is newer than the engine's current revision where only a past or
 * present revision makes sense (etcd's ErrFutureRev), for example {@code compact(R)} with R
 * beyond the current revision, or a read ({@link io.ringwatch.engine.kv.Op#readAt}) on a
 * transaction's chosen path at a revision after the one before the transaction.
 */
public final class FutureRevisionException extends RingWatchException
{
    private static final long serialVersionUID = 1L;

    private final long requestedRevision;
    private final long currentRevision;

    /**
     * @param requestedRevision the revision the caller asked for.
     * @param currentRevision   the engine's current revision when it was refused.
     */
    public FutureRevisionException(final long requestedRevision, final long currentRevision)
    {
        super("revision " + requestedRevision + " is in the future; current revision is " + currentRevision);
        this.requestedRevision = requestedRevision;
        this.currentRevision = currentRevision;
    }

    /**
     * @return the engine's current revision when the request was refused.
     */
    public long currentRevision()
    {
        return currentRevision;
    }

    /**
     * @return the revision the caller asked for.
     */
    public long requestedRevision()
    {
        return requestedRevision;
    }
}
