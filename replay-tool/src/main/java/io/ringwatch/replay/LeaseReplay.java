package io.ringwatch.replay;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;

import io.ringwatch.engine.errors.RingWatchException;
import io.ringwatch.engine.lease.Leases;
import io.ringwatch.persistence.ChangeType;
import io.ringwatch.persistence.ChangeView;
import io.ringwatch.persistence.LeaseFile;
import io.ringwatch.persistence.RevisionRecord;

/**
 * Carries the source's leases into the target of a republish: the lease log's grants (with their
 * ids and TTLs) and the ends of leases that held no key go to the target before the source revision
 * they precede; a source revision that deletes an ended lease's keys is re-made by revoking the
 * lease in the target (which deletes the same keys, in key order, under one revision, as the
 * source's end did). Target leases are kept alive while the republish runs (their TTLs restart when
 * it ends, as after a restart), so none expires in the target on its own. A put whose lease the
 * lease log no longer records (its grant was dropped by a rewrite of the lease log) is refused with
 * a {@link RepublishException}: the target cannot hold the lease as the source did. The command's
 * thread; allocates per record applied.
 */
final class LeaseReplay
{
    private static final long KEEP_ALIVE_EVERY_NANOS = 500_000_000L;

    private final Leases target;
    private final List<LeaseFile.Record> records;
    private final LongSupplier nanoClock;
    private final Set<Long> granted = new HashSet<>();
    private int next;
    private long keptAliveAt;

    /**
     * @param target    the target engine's leases.
     * @param records   the source's lease log, in order.
     * @param from      the first source revision published: after 1, records up to {@code from - 1}
     *                  are the base state's ({@link #grantBase}).
     * @param nanoClock a monotonic clock, for the keep-alives.
     */
    LeaseReplay(final Leases target, final List<LeaseFile.Record> records, final long from, final LongSupplier nanoClock)
    {
        this.target = target;
        this.records = records;
        this.nanoClock = nanoClock;
        this.keptAliveAt = nanoClock.getAsLong();
        while (from > 1 && next < records.size() && records.get(next).revision() <= from - 1)
        {
            next++;
        }
    }

    /**
     * Grants the leases live at source revision {@code revision} (a base state's), before its keys go in.
     *
     * @param revision the base state's revision.
     */
    void grantBase(final long revision)
    {
        for (final Map.Entry<Long, Long> lease : LeaseLines.liveAt(records, revision).entrySet())
        {
            grant(lease.getKey(), lease.getValue());
        }
    }

    /**
     * Applies the records that come before source revision {@code revision} (grants, and ends of
     * leases that held no key), and keeps the target's leases alive.
     *
     * @param revision the source revision about to be published.
     */
    void before(final long revision)
    {
        while (next < records.size() && records.get(next).revision() < revision)
        {
            final LeaseFile.Record record = records.get(next++);
            if (record.op() == LeaseFile.GRANT)
            {
                grant(record.id(), record.ttlSeconds());
            }
            else
            {
                revoke(record.id(), revision);
            }
        }
        keepAlive();
    }

    /**
     * Whether source revision {@code record} is a lease's end: the next record ends a lease naming
     * this revision, and the revision deletes only keys of that lease (an end recorded after the
     * revision, of a lease without keys, names it too, but the revision is not its).
     *
     * @param record a source revision.
     * @return true if it is the deletes of a lease's end.
     */
    boolean isEnd(final RevisionRecord record)
    {
        if (next >= records.size() || records.get(next).revision() != record.revision() ||
            records.get(next).op() != LeaseFile.REVOKE || record.changeCount() == 0)
        {
            return false;
        }
        final long id = records.get(next).id();
        for (int i = 0; i < record.changeCount(); i++)
        {
            final ChangeView change = record.change(i);
            if (change.type() != ChangeType.DELETE || change.prevLease() != id)
            {
                return false;
            }
        }
        return true;
    }

    /**
     * Re-makes source revision {@code revision}, a lease's end ({@link #isEnd}), by revoking it in the target.
     *
     * @param revision the source revision.
     * @return the target revision the revoke made.
     */
    long end(final long revision)
    {
        return revoke(records.get(next++).id(), revision);
    }

    /**
     * Applies the records recorded after the last published revision, up to {@code to}.
     *
     * @param to the last source revision published.
     */
    void rest(final long to)
    {
        before(to + 1);
    }

    /**
     * @param lease          a lease a source put carries.
     * @param sourceRevision the put's revision.
     * @throws RepublishException if the target does not hold it.
     */
    void requireHeld(final long lease, final long sourceRevision)
    {
        if (!granted.contains(lease))
        {
            throw new RepublishException("source revision " + sourceRevision + " puts a key with lease " + lease +
                ", whose grant the lease log no longer records (it keeps ended leases only since its last rewrite): " +
                "the target cannot hold that lease; republish a later span (--from) or without it");
        }
    }

    private void grant(final long id, final long ttlSeconds)
    {
        try
        {
            target.grant(id, ttlSeconds);
        }
        catch (final RingWatchException ex)
        {
            throw new RepublishException("the target refused the grant of lease " + id + ": " + ex.getMessage(), ex);
        }
        granted.add(id);
    }

    private long revoke(final long id, final long sourceRevision)
    {
        if (!granted.remove(id))
        {
            throw new RepublishException("the lease log ends lease " + id + " at source revision " + sourceRevision +
                " but records no grant of it (the lease log was rewritten): republish a later span (--from)");
        }
        try
        {
            return target.revoke(id);
        }
        catch (final RingWatchException ex)
        {
            throw new RepublishException("the target refused to end lease " + id + " (source revision " + sourceRevision +
                "): " + ex.getMessage(), ex);
        }
    }

    private void keepAlive()
    {
        final long now = nanoClock.getAsLong();
        if (granted.isEmpty() || now - keptAliveAt < KEEP_ALIVE_EVERY_NANOS)
        {
            return;
        }
        keptAliveAt = now;
        for (final long id : granted)
        {
            // Not waited for: a lease the target ended meanwhile would show as a diverged revision.
            target.keepAliveAsync(id);
        }
    }
}
