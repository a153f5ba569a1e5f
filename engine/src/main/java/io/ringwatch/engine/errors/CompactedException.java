package io.ringwatch.engine.errors;

/**
 * The revision asked for has been compacted away (etcd's ErrCompacted, Kubernetes' 410 "too old
 * resource version"), for a read, a watch, or a read ({@link io.ringwatch.engine.kv.Op#readAt}) on a
 * transaction's chosen path. {@link #compactRevision()} is the oldest revision still available.
 */
public final class CompactedException extends RingWatchException
{
    private static final long serialVersionUID = 1L;

    private final long requestedRevision;
    private final long compactRevision;

    /**
     * @param requestedRevision the revision the caller asked for.
     * @param compactRevision   the current compaction point.
     */
    public CompactedException(final long requestedRevision, final long compactRevision)
    {
        super("revision " + requestedRevision + " has been compacted; compact revision is " + compactRevision);
        this.requestedRevision = requestedRevision;
        this.compactRevision = compactRevision;
    }

    /**
     * @return the compaction point: revisions before it are gone.
     */
    public long compactRevision()
    {
        return compactRevision;
    }

    /**
     * @return the revision the caller asked for.
     */
    public long requestedRevision()
    {
        return requestedRevision;
    }
}
