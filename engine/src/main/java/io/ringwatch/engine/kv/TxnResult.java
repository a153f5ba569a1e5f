package io.ringwatch.engine.kv;

import java.util.List;

/**
 * What a {@link Txn} did: whether its conditions held, the store revision after it, one
 * {@link WriteResult} per put or delete of the branch taken and one {@code TxnResult} per
 * transaction nested in that branch. Immutable and thread-safe.
 */
public final class TxnResult
{
    private final long revision;
    private final boolean succeeded;
    private final List<WriteResult> results;
    private final List<TxnResult> nested;

    /**
     * A result whose branch nested no transaction.
     *
     * @param revision  the store revision after the transaction.
     * @param succeeded true when every condition held and the {@code then} branch ran.
     * @param results   one result per operation of the branch taken.
     */
    public TxnResult(final long revision, final boolean succeeded, final List<WriteResult> results)
    {
        this(revision, succeeded, results, List.of());
    }

    /**
     * @param revision  the store revision after the outermost transaction.
     * @param succeeded true when every condition held and the {@code then} branch ran.
     * @param results   one result per put or delete of the branch taken, in order.
     * @param nested    one result per nested transaction of the branch taken, in order.
     */
    public TxnResult(final long revision, final boolean succeeded, final List<WriteResult> results,
        final List<TxnResult> nested)
    {
        this.revision = revision;
        this.succeeded = succeeded;
        this.results = List.copyOf(results);
        this.nested = List.copyOf(nested);
    }

    /**
     * @return the store revision after the transaction.
     */
    public long revision()
    {
        return revision;
    }

    /**
     * @return true when every condition held.
     */
    public boolean succeeded()
    {
        return succeeded;
    }

    /**
     * @return one result per put or delete of the branch taken, in order (nested transactions
     *         are in {@link #nested()}).
     */
    public List<WriteResult> results()
    {
        return results;
    }

    /**
     * @return one result per transaction nested in the branch taken, in order.
     */
    public List<TxnResult> nested()
    {
        return nested;
    }

    @Override
    public String toString()
    {
        return "TxnResult(revision=" + revision + ", succeeded=" + succeeded + ", results=" + results +
            (nested.isEmpty() ? "" : ", nested=" + nested) + ")";
    }
}
