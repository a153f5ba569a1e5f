package io.ringwatch.engine.internal.write;

import io.ringwatch.engine.kv.Compare;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.Txn;
import io.ringwatch.engine.kv.TxnResult;
import io.ringwatch.engine.kv.WriteResult;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.Predicate;

/**
 * The path a transaction takes, nested transactions included: every condition on the path is
 * evaluated first, against the store before any write of the transaction (as etcd's
 * {@code compareToPath}), then the reads on the path are checked against the store's revisions
 * ({@link #checkReads}, etcd's {@code checkRange}), then the writes of the chosen branches are
 * applied in order as one flat list under one revision, and the results are folded back into the
 * nesting. Built and used on the writer thread only; allocates per transaction (none of it for a
 * transaction without nesting or reads beyond the plan itself).
 */
final class TxnPlan
{
    private final boolean succeeded;
    private final List<Op> branch;
    private final List<TxnPlan> nested;
    /** True when a read stands on the path: in the chosen branch or in a nested one's. */
    private final boolean reads;

    private TxnPlan(final boolean succeeded, final List<Op> branch, final List<TxnPlan> nested, final boolean reads)
    {
        this.succeeded = succeeded;
        this.branch = branch;
        this.nested = nested;
        this.reads = reads;
    }

    /**
     * @param txn   the transaction.
     * @param holds true when every condition of a list holds in the store as it is now.
     * @return the path the transaction and those nested in its chosen branches take.
     */
    static TxnPlan choose(final Txn txn, final Predicate<List<Compare>> holds)
    {
        final boolean succeeded = holds.test(txn.when());
        final List<Op> branch = succeeded ? txn.then() : txn.orElse();
        List<TxnPlan> nested = List.of();
        boolean reads = false;
        for (final Op op : branch)
        {
            if (op.kind() == Op.Kind.TXN)
            {
                if (nested.isEmpty())
                {
                    nested = new ArrayList<>();
                }
                final TxnPlan inner = choose(op.nested(), holds);
                reads |= inner.reads;
                nested.add(inner);
            }
            else if (op.kind() == Op.Kind.READ)
            {
                reads = true;
            }
        }
        return new TxnPlan(succeeded, branch, nested, reads);
    }

    /**
     * Checks every read on the path, in the path's order (a nested transaction's where it stands
     * in its branch), as etcd does before it writes anything.
     *
     * @param current   the store revision before the transaction.
     * @param mark      etcd's compaction mark (-1: never compacted; see {@link ReadRevisions}).
     * @throws io.ringwatch.engine.errors.FutureRevisionException for the first read after {@code current}.
     * @throws io.ringwatch.engine.errors.CompactedException      for the first read before the first revision.
     */
    void checkReads(final long current, final long mark)
    {
        if (!reads)
        {
            return;
        }
        int next = 0;
        for (final Op op : branch)
        {
            if (op.kind() == Op.Kind.TXN)
            {
                nested.get(next++).checkReads(current, mark);
            }
            else if (op.kind() == Op.Kind.READ)
            {
                ReadRevisions.check(op.readRevision(), current, mark);
            }
        }
    }

    /**
     * @return true when the outermost transaction's conditions held.
     */
    boolean succeeded()
    {
        return succeeded;
    }

    /**
     * @return the puts and deletes to apply, in order: the chosen branch with each nested
     *         transaction replaced by its own chosen writes, and without its reads.
     */
    List<Op> writes()
    {
        if (nested.isEmpty() && !reads)
        {
            return branch;
        }
        final List<Op> writes = new ArrayList<>();
        collect(writes);
        return writes;
    }

    private void collect(final List<Op> writes)
    {
        int next = 0;
        for (final Op op : branch)
        {
            if (op.kind() == Op.Kind.TXN)
            {
                nested.get(next++).collect(writes);
            }
            else if (op.kind() != Op.Kind.READ)
            {
                writes.add(op);
            }
        }
    }

    /**
     * @param revision the revision after the transaction.
     * @param results  one result per op of {@link #writes()}, in order.
     * @return the results folded back into the transaction's nesting.
     */
    TxnResult result(final long revision, final List<WriteResult> results)
    {
        return result(revision, results.iterator());
    }

    private TxnResult result(final long revision, final Iterator<WriteResult> results)
    {
        final List<WriteResult> own = new ArrayList<>(branch.size());
        final List<TxnResult> inner = new ArrayList<>(nested.size());
        int next = 0;
        for (final Op op : branch)
        {
            if (op.kind() == Op.Kind.TXN)
            {
                inner.add(nested.get(next++).result(revision, results));
            }
            else if (op.kind() != Op.Kind.READ)
            {
                own.add(results.next());
            }
        }
        return new TxnResult(revision, succeeded, own, inner);
    }
}
