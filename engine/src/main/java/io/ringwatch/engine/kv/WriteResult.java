package io.ringwatch.engine.kv;

import java.util.List;

/**
 * What one write did. {@link #revision()} is the store's revision after the write: the new
 * revision when it changed something, else the revision current when it was applied (etcd's
 * response header). Immutable and thread-safe.
 */
public final class WriteResult
{
    private final long revision;
    private final boolean succeeded;
    private final long deleted;
    private final List<KeyValue> prevKvs;

    /**
     * @param revision  the store revision after the write.
     * @param succeeded false when a compare-and-put's condition failed and nothing was written.
     * @param deleted   how many keys a delete removed.
     * @param prevKvs   the replaced or deleted key-values, when asked for.
     */
    public WriteResult(final long revision, final boolean succeeded, final long deleted, final List<KeyValue> prevKvs)
    {
        this.revision = revision;
        this.succeeded = succeeded;
        this.deleted = deleted;
        this.prevKvs = List.copyOf(prevKvs);
    }

    /**
     * @return the store revision after the write.
     */
    public long revision()
    {
        return revision;
    }

    /**
     * @return false when a conditional write's condition failed and nothing changed.
     */
    public boolean succeeded()
    {
        return succeeded;
    }

    /**
     * @return how many keys a delete removed (0 for a put).
     */
    public long deleted()
    {
        return deleted;
    }

    /**
     * @return the previous key-values, when the operation asked for them; empty otherwise.
     */
    public List<KeyValue> prevKvs()
    {
        return prevKvs;
    }

    /**
     * @return the one previous key-value of a put, or null when the key was new or it was not
     * asked for.
     */
    public KeyValue prevKv()
    {
        return prevKvs.isEmpty() ? null : prevKvs.get(0);
    }

    @Override
    public String toString()
    {
        return "WriteResult(revision=" + revision + ", succeeded=" + succeeded + ", deleted=" + deleted + ", prevKvs=" + prevKvs + ")";
    }
}
