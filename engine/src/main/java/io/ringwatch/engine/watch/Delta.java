package io.ringwatch.engine.watch;

import io.ringwatch.engine.kv.KeyValue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * The latest state of one key as a {@link DeltaWatcher} reports it (Juju's multiwatcher delta):
 * either the key-value after its newest change, or that the key was removed, with the revision
 * of that change. Every change of the key between two {@link DeltaWatcher#next} calls collapses
 * into one delta. Immutable and thread-safe; owns its bytes.
 */
public final class Delta
{
    private final byte[] key;
    private final KeyValue kv;
    private final long revision;

    private Delta(final byte[] key, final KeyValue kv, final long revision)
    {
        this.key = Objects.requireNonNull(key, "key");
        this.kv = kv;
        this.revision = revision;
    }

    /**
     * @param key the key; not copied, the caller hands it over.
     * @param kv  the key-value after the change.
     * @return a delta saying the key holds {@code kv}.
     */
    public static Delta present(final byte[] key, final KeyValue kv)
    {
        return new Delta(key, Objects.requireNonNull(kv, "kv"), kv.modRevision());
    }

    /**
     * @param key      the key; not copied, the caller hands it over.
     * @param revision the revision of the delete.
     * @return a delta saying the key was removed.
     */
    public static Delta removed(final byte[] key, final long revision)
    {
        return new Delta(key, null, revision);
    }

    /**
     * @return a copy of the key.
     */
    public byte[] key()
    {
        return key.clone();
    }

    /**
     * @return the key decoded as UTF-8.
     */
    public String keyAsString()
    {
        return new String(key, StandardCharsets.UTF_8);
    }

    /**
     * @return true when the key no longer exists (it may also have been created and removed
     * between two calls, so a client can meet the removal of a key it never saw).
     */
    public boolean isRemoved()
    {
        return kv == null;
    }

    /**
     * @return the key-value after the newest change, or null when the key was removed.
     */
    public KeyValue kv()
    {
        return kv;
    }

    /**
     * @return the revision of the key's newest change (its modRevision, or the delete's revision).
     */
    public long revision()
    {
        return revision;
    }

    @Override
    public boolean equals(final Object o)
    {
        if (this == o)
        {
            return true;
        }
        if (!(o instanceof Delta))
        {
            return false;
        }
        final Delta other = (Delta)o;
        return revision == other.revision && Arrays.equals(key, other.key) && Objects.equals(kv, other.kv);
    }

    @Override
    public int hashCode()
    {
        return 31 * Arrays.hashCode(key) + Long.hashCode(revision);
    }

    @Override
    public String toString()
    {
        return isRemoved() ? "Delta(removed " + keyAsString() + " @" + revision + ")" : "Delta(" + kv + ")";
    }
}
