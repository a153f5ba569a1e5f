package io.ringwatch.engine.internal.lease;

/**
 * One live lease in the writer's table: its id, granted TTL, deadline, place in the expiry queue
 * and keys. Writer thread only.
 */
public final class Lease
{
    final long id;
    final long ttlSeconds;
    long deadlineMillis;
    int queueIndex = -1;
    final LeaseKeys keys = new LeaseKeys();

    Lease(final long id, final long ttlSeconds, final long deadlineMillis)
    {
        this.id = id;
        this.ttlSeconds = ttlSeconds;
        this.deadlineMillis = deadlineMillis;
    }

    /**
     * @return the lease's id.
     */
    public long id()
    {
        return id;
    }

    /**
     * @return the TTL it was granted, in seconds.
     */
    public long ttlSeconds()
    {
        return ttlSeconds;
    }

    /**
     * @return when it expires, in the lease clock's milliseconds.
     */
    public long deadlineMillis()
    {
        return deadlineMillis;
    }

    /**
     * @return how many keys are attached to it.
     */
    public int keyCount()
    {
        return keys.size();
    }

    /**
     * @param i from 0 to {@link #keyCount()} - 1.
     * @return the i-th attached key in key order (the table's own array: do not modify).
     */
    public byte[] key(final int i)
    {
        return keys.get(i);
    }
}
