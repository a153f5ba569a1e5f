package io.ringwatch.engine.kv;

import java.util.List;

/**
 * A consistent read of a range: the key-values that were current at {@link #revision()}, in key
 * order, at most the limit asked for, and whether more keys follow. Immutable and thread-safe.
 */
public final class RangeResult
{
    private final long revision;
    private final List<KeyValue> kvs;
    private final boolean more;

    /**
     * @param revision the revision the read is consistent at.
     * @param kvs      the key-values, in key order; copied unless a {@link HandedOverKeyValues},
     *                 which is kept as it is.
     * @param more     true when the limit cut the result short.
     */
    public RangeResult(final long revision, final List<KeyValue> kvs, final boolean more)
    {
        this.revision = revision;
        this.kvs = kvs instanceof HandedOverKeyValues ? kvs : List.copyOf(kvs);
        this.more = more;
    }

    /**
     * @return the revision the whole result is consistent at; a watch from {@code revision()+1}
     * continues it without a gap or duplicate.
     */
    public long revision()
    {
        return revision;
    }

    /**
     * @return the key-values in key order, unmodifiable. A large range read's list holds its
     * key-values packed and creates each {@link KeyValue} when asked for it: hold on to the
     * elements you keep rather than calling {@code get} for the same index repeatedly.
     */
    public List<KeyValue> kvs()
    {
        return kvs;
    }

    /**
     * @return true when more keys of the range exist beyond the limit.
     */
    public boolean more()
    {
        return more;
    }

    @Override
    public String toString()
    {
        return "RangeResult(revision=" + revision + ", kvs=" + kvs + ", more=" + more + ")";
    }
}
