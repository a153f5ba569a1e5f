package io.ringwatch.server.kv;

import io.grpc.StatusRuntimeException;
import io.ringwatch.server.api.etcdserverpb.RequestOp;
import io.ringwatch.server.rpc.EtcdErrors;

import java.util.List;

/**
 * etcd's rule for the revisions that a transaction's range operations name ({@code checkRange} in
 * etcd's txn code, run over the chosen path before anything is written): a range at a revision
 * after the store's revision before the transaction is a future revision, one before etcd's first
 * revision is compacted, and either refuses the whole transaction. etcd's first revision is its
 * compaction point, and -1 before any compaction: so a negative revision is compacted once the
 * store was compacted, and before that only below -1 (-1 itself reads at the current revision,
 * as 0 does). Applied to the
 * range operations directly in a branch; those of a nested transaction are read at the revision
 * they name (ARCHITECTURE.md, "Known limits"). Stateless; allocates nothing when no range names a
 * revision.
 */
final class TxnRevisions
{
    /** etcd's first revision (its compactMainRev) in a store never compacted. */
    private static final long NEVER_COMPACTED = -1;

    private TxnRevisions()
    {
    }

    /**
     * @param branch    a branch's operations.
     * @param current   the store revision the transaction would see before its writes.
     * @param compacted the compaction point (0: never compacted).
     * @return etcd's error for the first range operation of the branch whose revision is out of
     *         bounds, or null when the branch may run.
     */
    static StatusRuntimeException refusal(final List<RequestOp> branch, final long current, final long compacted)
    {
        final long first = compacted == 0 ? NEVER_COMPACTED : compacted;
        for (final RequestOp op : branch)
        {
            if (op.getRequestCase() != RequestOp.RequestCase.REQUEST_RANGE)
            {
                continue;
            }
            final long revision = op.getRequestRange().getRevision();
            if (revision == 0)
            {
                continue;
            }
            if (revision > current)
            {
                return EtcdErrors.futureRevision();
            }
            if (revision < first)
            {
                return EtcdErrors.compacted();
            }
        }
        return null;
    }
}
