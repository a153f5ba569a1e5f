package io.ringwatch.engine.internal.write;

import io.ringwatch.engine.errors.DuplicateKeyException;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.Keys;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.Txn;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * etcd's rule for a branch that nests transactions ({@code checkIntervals} in etcd's v3rpc): no
 * key may be put twice, nor put and deleted, on paths that the conditions could choose together.
 * A nested transaction's then and else branches exclude each other, so the same key put in both is
 * allowed; everything else a branch and its nested transactions could write counts together,
 * whatever the conditions will choose. Stateless; called on the caller's thread before a
 * transaction is published; allocates per check.
 */
final class NestedWrites
{
    private final Set<byte[]> puts = new TreeSet<>(Keys::compare);
    private final List<KeyRange> deletes = new ArrayList<>();

    private NestedWrites()
    {
    }

    /**
     * @param branch a branch's operations, some of them nested transactions.
     * @throws DuplicateKeyException if a key could be written twice in the transaction's revision.
     */
    static void check(final List<Op> branch)
    {
        of(branch);
    }

    private static NestedWrites of(final List<Op> branch)
    {
        final NestedWrites writes = new NestedWrites();
        for (final Op op : branch)
        {
            if (op.kind() == Op.Kind.DELETE)
            {
                writes.deletes.add(op.range());
            }
        }
        for (final Op op : branch)
        {
            if (op.kind() == Op.Kind.TXN)
            {
                final Txn txn = op.nested();
                final NestedWrites then = of(txn.then());
                final NestedWrites orElse = of(txn.orElse());
                for (final byte[] key : then.puts)
                {
                    writes.add(key, op);
                }
                for (final byte[] key : orElse.puts)
                {
                    // then and else exclude each other: a key both of them put is one write.
                    if (!then.puts.contains(key))
                    {
                        writes.add(key, op);
                    }
                    else
                    {
                        writes.requireNotDeleted(key, op);
                    }
                }
                writes.deletes.addAll(then.deletes);
                writes.deletes.addAll(orElse.deletes);
            }
        }
        for (final Op op : branch)
        {
            if (op.kind() == Op.Kind.PUT)
            {
                writes.add(op.key(), op);
            }
        }
        return writes;
    }

    private void add(final byte[] key, final Op op)
    {
        if (!puts.add(key))
        {
            throw new DuplicateKeyException("duplicate key given in transaction: " + KeyRange.key(key) + " in " + op);
        }
        requireNotDeleted(key, op);
    }

    private void requireNotDeleted(final byte[] key, final Op op)
    {
        for (final KeyRange delete : deletes)
        {
            if (delete.contains(key))
            {
                throw new DuplicateKeyException("transaction deletes a key it also puts: " + KeyRange.key(key) + " in " + op);
            }
        }
    }
}
