package io.ringwatch.engine.internal.lease;

import io.ringwatch.engine.errors.LeaseExistsException;
import org.agrona.DirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;

import java.util.Arrays;

/**
 * The live leases: by id, by deadline, and each lease's keys. The writer's, like the index: only
 * the writer thread calls it, with the time its command carries, so its decisions are a function
 * of the write ring's input (issue 12: the writer stays deterministic). Nothing it returns depends
 * on hash order: {@link #ids()} is sorted, the expiry order is (deadline, id), keys are in key order.
 *
 * <p>Memory per lease: the {@link Lease} object, its key set and its keys' copies, a map entry
 * and a heap slot (measured in jmh/README.md, "Leases"). Allocation: a grant allocates its lease;
 * attaching a key copies it; nothing else allocates but the structures' growth.
 */
public final class LeaseTable
{
    private final long minTtlSeconds;
    private final Long2ObjectHashMap<Lease> byId = new Long2ObjectHashMap<>();
    private final ExpiryQueue queue = new ExpiryQueue();
    private long nextId = 1;
    /** Written by the writer (recovery, before it starts) after each change of {@code byId}. */
    private volatile int live;

    /**
     * @param minTtlSeconds the least TTL a lease is granted; a smaller request is raised to it.
     */
    public LeaseTable(final long minTtlSeconds)
    {
        this.minTtlSeconds = minTtlSeconds;
    }

    /**
     * @param id a lease id.
     * @return the live lease, or null.
     */
    public Lease find(final long id)
    {
        return id == 0 ? null : byId.get(id);
    }

    /**
     * @return how many leases live.
     */
    public int size()
    {
        return byId.size();
    }

    /**
     * @return how many leases lived after the last grant, restore or removal: for the lease
     * timer, which skips its check (a command through the writer) while there is none. Any
     * thread; no allocation.
     */
    public int liveCount()
    {
        return live;
    }

    /**
     * Grants a lease that expires {@code ttlSeconds} (at least the minimum) after {@code nowMillis}.
     *
     * @param id         the caller's id, or 0 for the next free id the table chooses.
     * @param ttlSeconds the TTL asked for; the caller checked it is at most the maximum.
     * @param nowMillis  the command's time.
     * @return the new lease.
     * @throws LeaseExistsException when {@code id} is in use; nothing changes.
     */
    public Lease grant(final long id, final long ttlSeconds, final long nowMillis)
    {
        final long chosen = id != 0 ? id : nextFreeId();
        if (byId.containsKey(chosen))
        {
            throw new LeaseExistsException(chosen);
        }
        final long ttl = Math.max(ttlSeconds, minTtlSeconds);
        final Lease lease = new Lease(chosen, ttl, deadline(nowMillis, ttl));
        byId.put(chosen, lease);
        queue.add(lease);
        live = byId.size();
        return lease;
    }

    /**
     * Restores a lease as recovery finds it, its deadline a full TTL after {@code nowMillis} (as
     * etcd refreshes every lease at recovery).
     *
     * @param id         the lease's id.
     * @param ttlSeconds its granted TTL.
     * @param nowMillis  the time recovery ran.
     * @return the lease.
     */
    public Lease restore(final long id, final long ttlSeconds, final long nowMillis)
    {
        final Lease existing = byId.get(id);
        if (existing != null)
        {
            return existing;
        }
        final Lease lease = new Lease(id, ttlSeconds, deadline(nowMillis, ttlSeconds));
        byId.put(id, lease);
        queue.add(lease);
        live = byId.size();
        reserveThrough(id);
        return lease;
    }

    /**
     * Makes the ids this table chooses from now on greater than {@code id}: at recovery, above every
     * id ever granted before the restart. The writer (recovery); no allocation.
     *
     * @param id the highest id not to choose again.
     */
    public void reserveThrough(final long id)
    {
        nextId = Math.max(nextId, id + 1);
    }

    /**
     * Renews a lease: it expires a full TTL after {@code nowMillis}.
     *
     * @param lease     a live lease.
     * @param nowMillis the command's time.
     */
    public void renew(final Lease lease, final long nowMillis)
    {
        lease.deadlineMillis = deadline(nowMillis, lease.ttlSeconds);
        queue.moved(lease);
    }

    /**
     * @param nowMillis the command's time.
     * @return the live lease due first at that time (earliest deadline, then lowest id), or null.
     */
    public Lease firstDue(final long nowMillis)
    {
        final Lease first = queue.first();
        return first != null && first.deadlineMillis <= nowMillis ? first : null;
    }

    /**
     * Forgets a lease (revoked or expired; the caller deleted its keys).
     *
     * @param lease a live lease.
     */
    public void remove(final Lease lease)
    {
        byId.remove(lease.id);
        queue.remove(lease);
        live = byId.size();
    }

    /**
     * Attaches a key to a lease (no-op when the lease does not live or already holds it).
     *
     * @param id        the lease id, 0 for none.
     * @param key       holds the key from offset 0.
     * @param keyLength its length.
     */
    public void attach(final long id, final DirectBuffer key, final int keyLength)
    {
        final Lease lease = find(id);
        if (lease != null)
        {
            lease.keys.add(key, keyLength);
        }
    }

    /**
     * Detaches a key from a lease (no-op when the lease does not live or does not hold it).
     *
     * @param id        the lease id, 0 for none.
     * @param key       holds the key from offset 0.
     * @param keyLength its length.
     */
    public void detach(final long id, final DirectBuffer key, final int keyLength)
    {
        final Lease lease = find(id);
        if (lease != null)
        {
            lease.keys.remove(key, keyLength);
        }
    }

    /**
     * @return the live leases' ids, ascending; a new array.
     */
    public long[] ids()
    {
        final long[] ids = new long[byId.size()];
        int i = 0;
        for (final Long2ObjectHashMap<Lease>.KeyIterator it = byId.keySet().iterator(); it.hasNext(); )
        {
            ids[i++] = it.nextLong();
        }
        Arrays.sort(ids);
        return ids;
    }

    private long nextFreeId()
    {
        while (byId.containsKey(nextId))
        {
            nextId++;
        }
        return nextId++;
    }

    private static long deadline(final long nowMillis, final long ttlSeconds)
    {
        return nowMillis + ttlSeconds * 1000;
    }
}
