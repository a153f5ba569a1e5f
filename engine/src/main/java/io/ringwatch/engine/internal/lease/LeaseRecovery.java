package io.ringwatch.engine.internal.lease;

import io.ringwatch.engine.internal.index.IndexEntry;
import io.ringwatch.engine.internal.index.OffHeapIndex;
import io.ringwatch.engine.spi.Journal;

/**
 * Rebuilds the lease table at open, after the index was recovered: the leases the journal
 * recorded as granted and not ended, each refreshed to its full TTL from the time of recovery (as
 * etcd's lessor does on promotion: no lease expires on the spot because the engine was down), the
 * ids chosen next set above every id the journal ever recorded (ended leases included), then
 * every key of the index attached to its lease, in key order (a scan of every key, skipped when
 * the index never stored a key with a lease). A key whose lease the journal does
 * not hold (its grant was lost with the page cache in an OS crash, the keys' revision was not) gets
 * that lease back with the minimum TTL, so it still expires. Runs on the opening thread, before the
 * writer starts; allocates the table and a key copy per attached key.
 */
public final class LeaseRecovery
{
    private LeaseRecovery()
    {
    }

    /**
     * @param journal       the journal, or null in memory (then an empty table).
     * @param index         the recovered index, not yet shared.
     * @param minTtlSeconds the least TTL a lease is granted.
     * @param nowMillis     the lease clock's time at recovery.
     * @return the table, holding every recovered lease and its keys.
     */
    public static LeaseTable recover(final Journal journal, final OffHeapIndex index, final long minTtlSeconds, final long nowMillis)
    {
        final LeaseTable table = new LeaseTable(minTtlSeconds);
        if (journal == null)
        {
            return table;
        }
        journal.loadLeases((id, ttlSeconds) -> table.restore(id, ttlSeconds, nowMillis));
        table.reserveThrough(journal.highestLeaseId());
        if (!index.mayHoldLeases())
        {
            // no key to attach: the scan would copy every key-value for nothing
            return table;
        }
        final IndexEntry entry = new IndexEntry();
        index.scan(null, 0, 0, null, 0, 0, 0, e ->
        {
            final long lease = e.lease();
            if (lease != 0)
            {
                if (table.find(lease) == null)
                {
                    table.restore(lease, minTtlSeconds, nowMillis);
                }
                table.attach(lease, e.key(), e.keyLength());
            }
            return true;
        }, entry);
        return table;
    }
}
