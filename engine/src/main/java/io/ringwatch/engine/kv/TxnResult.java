package io.ringwatch.engine.kv;

import java.util.List;

/**
 * What a {@link Txn} did: whether its conditions held, the store revision after it, and one
 * {@link WriteResult} per operation of the branch taken. Immutable and thread-safe.
 */
public final class TxnResult
{
    private final long revision;
    private final boolean succeeded;
    private final List<WriteResult> results;

    /**
     * @param revision  the store revision after the transaction.
     * @param succeeded true when every condition held and the {@code then} branch ran.
     * @param results   one result per operation of the branch taken.
     */
    public TxnResult(final long revision, final boolean succeeded, final List<WriteResult> results)
    {
        this.revision = revision;
        this.succeeded = succeeded;
        this.results = List.copyOf(results);
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
     * @return one result per operation of the branch taken, in order.
     */
    public List<WriteResult> results()
    {
        return results;
    }

    @Override
    public String toString()
    {
        return "TxnResult(revision=" + revision + ", succeeded=" + succeeded + ", results=" + results + ")";
    }
}
