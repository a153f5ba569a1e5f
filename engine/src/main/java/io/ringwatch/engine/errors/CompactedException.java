package io.ringwatch.engine.errors;

/**
 * The revision asked for has been compacted away (etcd's ErrCompacted, Kubernetes' 410 "too old
 * resource version"). {@link #compactRevision()} is the oldest revision still available.
 */
public final class CompactedException extends RingWatchException
{
    private static final long serialVersionUID = 1L;

    private final long compactRevision;

    /**
     * @param requestedRevision the revision the caller asked for.
     * @param compactRevision   the current compaction point.
     */
    public CompactedException(final long requestedRevision, final long compactRevision)
    {
        super("revision " + requestedRevision + " has been compacted; compact revision is " + compactRevision);
        this.compactRevision = compactRevision;
    }

    /**
     * @return the compaction point: revisions before it are gone.
     */
    public long compactRevision()
    {
        return compactRevision;
    }
}
