package io.ringwatch.engine.internal.write;

import io.ringwatch.engine.errors.CompactedException;
import io.ringwatch.engine.errors.FutureRevisionException;

/**
 * etcd's rule for the revision that a read in a transaction's chosen path names
 * ({@code checkRange} in etcd's txn code): after the store's revision before the transaction it is
 * a future revision, before the store's first revision it is compacted, and either refuses the
 * whole transaction. etcd's first revision is its compaction mark: -1 before any compaction, 0
 * after a compaction at 0, else the compaction point. So a negative revision is compacted once the
 * store was compacted (at 0 too), and before that only below -1 (-1 itself reads at the current
 * revision, as 0 does). Stateless; allocates only the exception.
 */
final class ReadRevisions
{
    private ReadRevisions()
    {
    }

    /**
     * @param revision  the revision a read names.
     * @param current   the store revision before the transaction.
     * @param mark      etcd's compaction mark (its compactMainRev): -1 when never compacted.
     * @throws FutureRevisionException if the revision is after {@code current}.
     * @throws CompactedException      if it is before the store's first revision.
     */
    static void check(final long revision, final long current, final long mark)
    {
        if (revision == 0)
        {
            return;
        }
        if (revision > current)
        {
            throw new FutureRevisionException(revision, current);
        }
        if (revision < mark)
        {
            throw new CompactedException(revision, Math.max(mark, 0));
        }
    }
}
