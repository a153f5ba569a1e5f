package io.ringwatch.engine.lease;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What a lease has left (etcd's LeaseTimeToLiveResponse): its granted TTL, the time remaining
 * before it expires, and, when asked for, the keys attached to it in key order. Immutable;
 * thread-safe; holds its own copies of the keys.
 */
public final class LeaseTimeToLive
{
    private final long id;
    private final long grantedTtlSeconds;
    private final long remainingMillis;
    private final List<byte[]> keys;

    /**
     * @param id                the lease's id.
     * @param grantedTtlSeconds the TTL it was granted (and is renewed to by a keep-alive).
     * @param remainingMillis   time left before it expires, 0 when it is due.
     * @param keys              its keys in key order, handed over (not copied); empty when not
     *                          asked for.
     */
    public LeaseTimeToLive(final long id, final long grantedTtlSeconds, final long remainingMillis, final List<byte[]> keys)
    {
        this.id = id;
        this.grantedTtlSeconds = grantedTtlSeconds;
        this.remainingMillis = Math.max(0, remainingMillis);
        this.keys = Collections.unmodifiableList(keys);
    }

    /**
     * @return the lease's id.
     */
    public long id()
    {
        return id;
    }

    /**
     * @return the TTL the lease was granted, in seconds (etcd's {@code grantedTTL}).
     */
    public long grantedTtlSeconds()
    {
        return grantedTtlSeconds;
    }

    /**
     * @return the whole seconds left before the lease expires (etcd's {@code TTL}, which truncates
     *         the same way), 0 when it is due.
     */
    public long ttlSeconds()
    {
        return remainingMillis / 1000;
    }

    /**
     * @return the milliseconds left before the lease expires, 0 when it is due.
     */
    public long remainingMillis()
    {
        return remainingMillis;
    }

    /**
     * @return copies of the keys attached to the lease, in key order; empty when the call did not
     *         ask for them. Allocates the copies.
     */
    public List<byte[]> keys()
    {
        final List<byte[]> copies = new ArrayList<>(keys.size());
        for (final byte[] key : keys)
        {
            copies.add(key.clone());
        }
        return copies;
    }

    @Override
    public String toString()
    {
        return "lease " + id + " (granted " + grantedTtlSeconds + " s, " + remainingMillis + " ms left, " + keys.size() + " keys)";
    }
}
