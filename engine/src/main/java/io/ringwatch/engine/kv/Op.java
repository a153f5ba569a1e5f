package io.ringwatch.engine.kv;

import io.ringwatch.engine.errors.InvalidRequestException;

/**
 * One operation: a write, used alone or inside a {@link Txn} (a put of one key, a delete of a
 * {@link KeyRange}), or, only inside a transaction's branch, a nested transaction (etcd 3.4+'s
 * {@code RequestOp.request_txn}) or a read at a revision that the transaction must allow
 * ({@link #readAt}). Built with the static factories; immutable and thread-safe.
 */
public final class Op
{
    /** What an operation does. */
    public enum Kind
    {
        /** Create or replace one key. */
        PUT,
        /** Delete every key of a range. */
        DELETE,
        /** A transaction inside a transaction's branch, applied under the outer one's revision. */
        TXN,
        /** A read at a revision inside a transaction's branch: checked against the store, not served. */
        READ
    }

    private final Kind kind;
    private final KeyRange range;
    private final byte[] value;
    private final boolean prevKv;
    private final Txn nested;
    private final long lease;
    private final boolean ignoreLease;
    private final long readRevision;

    private Op(final Kind kind, final KeyRange range, final byte[] value, final boolean prevKv, final Txn nested)
    {
        this(kind, range, value, prevKv, nested, 0, false, 0);
    }

    private Op(
        final Kind kind, final KeyRange range, final byte[] value, final boolean prevKv, final Txn nested,
        final long lease, final boolean ignoreLease, final long readRevision)
    {
        this.kind = kind;
        this.range = range;
        this.value = value;
        this.prevKv = prevKv;
        this.nested = nested;
        this.lease = lease;
        this.ignoreLease = ignoreLease;
        this.readRevision = readRevision;
    }

    /**
     * @param key   the key.
     * @param value the new value (may be empty, not null).
     * @return a put of {@code key}.
     * @throws InvalidRequestException if the key is null or empty or the value is null.
     */
    public static Op put(final byte[] key, final byte[] value)
    {
        if (value == null)
        {
            throw new InvalidRequestException("value must not be null");
        }
        return new Op(Kind.PUT, KeyRange.key(key), value.clone(), false, null);
    }

    /**
     * @param key   the key, UTF-8 encoded.
     * @param value the new value, UTF-8 encoded.
     * @return a put of {@code key}.
     * @throws InvalidRequestException if the key is null or empty or the value is null.
     */
    public static Op put(final String key, final String value)
    {
        return put(Keys.utf8(key), Keys.utf8(value));
    }

    /**
     * @param range the keys to delete.
     * @return a delete of every key in {@code range}.
     * @throws InvalidRequestException if the range is null.
     */
    public static Op delete(final KeyRange range)
    {
        if (range == null)
        {
            throw new InvalidRequestException("range must not be null");
        }
        return new Op(Kind.DELETE, range, null, false, null);
    }

    /**
     * @param key the key.
     * @return a delete of {@code key}.
     */
    public static Op delete(final byte[] key)
    {
        return delete(KeyRange.key(key));
    }

    /**
     * @param key the key, UTF-8 encoded.
     * @return a delete of {@code key}.
     */
    public static Op delete(final String key)
    {
        return delete(KeyRange.key(key));
    }

    /**
     * A transaction nested in a branch of another: its conditions are evaluated against the store
     * as it was before the outermost transaction, as etcd does, and the writes of the branch they
     * choose are applied in place, under the outermost transaction's one revision.
     *
     * @param txn the nested transaction.
     * @return an operation for a {@link Txn} branch; refused as a write of its own.
     * @throws InvalidRequestException if the transaction is null.
     */
    public static Op txn(final Txn txn)
    {
        if (txn == null)
        {
            throw new InvalidRequestException("nested transaction must not be null");
        }
        return new Op(Kind.TXN, null, null, false, txn);
    }

    /**
     * A read that the caller makes at {@code revision} as part of a transaction's branch (etcd's
     * range operation in a Txn): the engine reads nothing for it (the caller reads once the
     * transaction is applied), but holds the transaction to etcd's rule for such reads
     * ({@code checkRange}). After choosing the whole path, nested transactions included, and before
     * writing anything, the writer refuses the transaction when a read on that path names a revision
     * after the store's revision before the transaction
     * ({@link io.ringwatch.engine.errors.FutureRevisionException}) or before the store's first
     * revision, which is its compaction point, or -1 while it was never compacted, as in etcd
     * ({@link io.ringwatch.engine.errors.CompactedException}): the first such read in the path's
     * order decides which. A refused transaction writes nothing and takes no revision. So 0 is always
     * allowed (the current revision), -1 only before any compaction, any lower revision never. A
     * read on a branch not taken is not checked. Allocates this operation only.
     *
     * @param revision the revision the caller will read the store at.
     * @return an operation for a {@link Txn} branch; refused as a write of its own.
     */
    public static Op readAt(final long revision)
    {
        return new Op(Kind.READ, null, null, false, null, 0, false, revision);
    }

    /**
     * @return a copy of this operation that also returns the previous key-values it replaced or
     * deleted (etcd's prev_kv).
     * @throws InvalidRequestException for a nested transaction, whose own operations say so, or a
     *                                 read.
     */
    public Op withPrevKv()
    {
        if (kind == Kind.TXN || kind == Kind.READ)
        {
            throw new InvalidRequestException("prev_kv is set on a put or delete, not on " + kind);
        }
        return new Op(kind, range, value, true, null, lease, ignoreLease, 0);
    }

    /**
     * A put that attaches its key to a lease (etcd's {@code PutRequest.lease}): when the lease ends,
     * the key is deleted. The writer refuses the put, changing nothing, if the lease does not live
     * ({@link io.ringwatch.engine.errors.LeaseNotFoundException}). A put without a lease detaches
     * its key from any lease, as in etcd.
     *
     * @param leaseId the lease, any id but 0 (a negative one too: etcd grants a client's negative
     *                id); 0 for none (the default).
     * @return a copy of this put with the lease.
     * @throws InvalidRequestException for anything but a put, or a put that keeps its key's lease
     *                                 ({@link #withIgnoreLease()}).
     */
    public Op withLease(final long leaseId)
    {
        requirePut("a lease");
        if (ignoreLease && leaseId != 0)
        {
            throw new InvalidRequestException("etcdserver: lease is provided");
        }
        return new Op(kind, range, value, prevKv, null, leaseId, false, 0);
    }

    /**
     * A put that keeps its key's current lease, whatever it is (etcd's {@code ignore_lease}). The
     * writer refuses it, changing nothing, when the key does not exist
     * ({@link io.ringwatch.engine.errors.KeyNotFoundException}).
     *
     * @return a copy of this put that keeps the key's lease.
     * @throws InvalidRequestException for anything but a put, or a put that names a
     *                                 lease (etcd's "lease is provided").
     */
    public Op withIgnoreLease()
    {
        requirePut("ignore_lease");
        if (lease != 0)
        {
            throw new InvalidRequestException("etcdserver: lease is provided");
        }
        return new Op(kind, range, value, prevKv, null, 0, true, 0);
    }

    /**
     * @return the lease a put attaches its key to, 0 for none (or for a put that keeps the key's
     *         lease, or for anything but a put).
     */
    public long lease()
    {
        return lease;
    }

    /**
     * @return true for a put that keeps its key's current lease.
     */
    public boolean ignoreLease()
    {
        return ignoreLease;
    }

    private void requirePut(final String what)
    {
        if (kind != Kind.PUT)
        {
            throw new InvalidRequestException(what + " is set on a put only, not on " + kind);
        }
    }

    /**
     * @return what this operation does.
     */
    public Kind kind()
    {
        return kind;
    }

    /**
     * @return the nested transaction of a {@link Kind#TXN} operation; null otherwise.
     */
    public Txn nested()
    {
        return nested;
    }

    /**
     * @return the revision a {@link Kind#READ} reads at; 0 for anything else.
     */
    public long readRevision()
    {
        return readRevision;
    }

    /**
     * @return the keys it touches (a single key for a put); null for a nested transaction or a read.
     */
    public KeyRange range()
    {
        return range;
    }

    /**
     * @return the key of a put (shared array: do not modify).
     */
    public byte[] key()
    {
        return range.fromKey();
    }

    /**
     * @return the value of a put (shared array: do not modify); null for a delete.
     */
    public byte[] value()
    {
        return value;
    }

    /**
     * @return true when the previous key-values are to be returned.
     */
    public boolean prevKv()
    {
        return prevKv;
    }

    @Override
    public String toString()
    {
        switch (kind)
        {
            case TXN:
                return "TXN " + nested;
            case READ:
                return "READ at " + readRevision;
            default:
                return kind + " " + range;
        }
    }
}
