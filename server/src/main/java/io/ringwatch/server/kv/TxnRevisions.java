package io.ringwatch.server.kv;

import io.grpc.StatusRuntimeException;
import io.ringwatch.server.api.etcdserverpb.RequestOp;
import io.ringwatch.server.rpc.EtcdErrors;

import java.util.List;

/**
 * etcd's rule for the revisions that a transaction's range operations name ({@code checkRange} in
 * etcd's txn code, run over the chosen path before anything is written): a range at a revision
 * after the store's revision before the transaction is a future revision, one before the
 * compaction point is compacted, and either refuses the whole transaction. Applied to the
 * range operations directly in a branch; those of a nested transaction are read at the revision
 * they name (ARCHITECTURE.md, "Known limits"). Stateless; allocates nothing when no range names a
 * revision.
 */
final class TxnRevisions
{
    private TxnRevisions()
    {
    }

    /**
     * @param branch    a branch's operations.
     * @param current   the store revision the transaction would see before its writes.
     * @param compacted the compaction point.
     * @return etcd's error for the first range operation of the branch whose revision is out of
     *         bounds, or null when the branch may run.
     */
    static StatusRuntimeException refusal(final List<RequestOp> branch, final long current, final long compacted)
    {
        for (final RequestOp op : branch)
        {
            if (op.getRequestCase() != RequestOp.RequestCase.REQUEST_RANGE)
            {
                continue;
            }
            final long revision = op.getRequestRange().getRevision();
            if (revision > current)
            {
                return EtcdErrors.futureRevision();
            }
            if (revision > 0 && revision < compacted)
            {
                return EtcdErrors.compacted();
            }
        }
        return null;
    }
}
