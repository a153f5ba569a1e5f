package io.ringwatch.replay;

import io.ringwatch.persistence.ChangeType;
import io.ringwatch.persistence.ChangeView;

/**
 * One key's state (etcd's KeyValue): owned copies of the key and value bytes with the create
 * revision, mod revision and version. Immutable by convention (the arrays are not copied again);
 * any thread; allocates its arrays on creation.
 *
 * @param key            the key bytes.
 * @param value          the value bytes.
 * @param createRevision the revision that created the key.
 * @param modRevision    the revision of its last change.
 * @param version        puts since it was created.
 * @param lease          the lease it is attached to, 0 for none.
 */
record KeyState(byte[] key, byte[] value, long createRevision, long modRevision, long version, long lease)
{
    /**
     * A key without a lease.
     *
     * @param key            the key bytes.
     * @param value          the value bytes.
     * @param createRevision the revision that created the key.
     * @param modRevision    the revision of its last change.
     * @param version        puts since it was created.
     */
    KeyState(final byte[] key, final byte[] value, final long createRevision, final long modRevision, final long version)
    {
        this(key, value, createRevision, modRevision, version, 0);
    }

    /**
     * The key's state after a change.
     *
     * @param change a change read from the log.
     * @return the post-state of a PUT; null for a DELETE.
     */
    static KeyState after(final ChangeView change)
    {
        if (change.type() != ChangeType.PUT)
        {
            return null;
        }
        return new KeyState(key(change), copy(change, change.valueOffset(), change.valueLength()),
            change.createRevision(), change.modRevision(), change.version(), change.lease());
    }

    /**
     * The key's state before a change, as the log recorded it.
     *
     * @param change a change read from the log.
     * @return the previous state; null when the key did not exist (previous mod revision 0).
     */
    static KeyState before(final ChangeView change)
    {
        if (change.prevModRevision() == 0)
        {
            return null;
        }
        return new KeyState(key(change), copy(change, change.prevValueOffset(), change.prevValueLength()),
            change.prevCreateRevision(), change.prevModRevision(), change.prevVersion(), change.prevLease());
    }

    /**
     * A copy of a change's key.
     *
     * @param change a change read from the log.
     * @return the key bytes.
     */
    static byte[] key(final ChangeView change)
    {
        return copy(change, change.keyOffset(), change.keyLength());
    }

    private static byte[] copy(final ChangeView change, final int offset, final int length)
    {
        final byte[] bytes = new byte[length];
        change.buffer().getBytes(offset, bytes);
        return bytes;
    }
}
