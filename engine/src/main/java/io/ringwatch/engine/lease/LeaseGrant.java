package io.ringwatch.engine.lease;

/**
 * A granted lease (etcd's LeaseGrantResponse): its id and the TTL it was granted, after the
 * minimum was applied. Immutable; thread-safe.
 */
public final class LeaseGrant
{
    private final long id;
    private final long ttlSeconds;

    /**
     * @param id         the lease's id, positive.
     * @param ttlSeconds the TTL granted, in seconds.
     */
    public LeaseGrant(final long id, final long ttlSeconds)
    {
        this.id = id;
        this.ttlSeconds = ttlSeconds;
    }

    /**
     * @return the lease's id (positive).
     */
    public long id()
    {
        return id;
    }

    /**
     * @return the TTL granted, in seconds: the one asked for, or the configured minimum if that
     *         was larger.
     */
    public long ttlSeconds()
    {
        return ttlSeconds;
    }

    @Override
    public String toString()
    {
        return "lease " + id + " (ttl " + ttlSeconds + " s)";
    }
}
