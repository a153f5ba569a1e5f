package io.ringwatch.engine.watch;

import org.agrona.DirectBuffer;

/**
 * A flyweight view of one change delivered to a watcher. It is reused: valid only inside the
 * callback (or poll) that handed it out; call {@link #toEvent()} to keep a copy. Reading it
 * allocates nothing. Buffers hold their bytes from offset 0 for the given length.
 *
 * <p>For a PUT the key-value is the new state (createRevision, modRevision = the event's
 * revision, version). For a DELETE the value is empty, createRevision and version are 0 and
 * modRevision is the delete's revision, as in etcd. The previous key-value is present only when
 * the watch asked for it and the key existed before.
 */
public interface WatchEvent
{
    /**
     * @return PUT or DELETE.
     */
    EventType type();

    /**
     * @return the revision of the change (several events of one transaction share it).
     */
    long revision();

    /**
     * @return the key's bytes, from offset 0.
     */
    DirectBuffer keyBuffer();

    /**
     * @return the key's length.
     */
    int keyLength();

    /**
     * @return the new value's bytes, from offset 0 (empty for a DELETE).
     */
    DirectBuffer valueBuffer();

    /**
     * @return the new value's length.
     */
    int valueLength();

    /**
     * @return the revision that created the key (0 for a DELETE).
     */
    long createRevision();

    /**
     * @return the revision of this change.
     */
    long modRevision();

    /**
     * @return the key's version after the change (0 for a DELETE).
     */
    long version();

    /**
     * @return the id of the lease the key is attached to after the change (etcd's {@code lease}),
     *         0 for none and for a DELETE.
     */
    long lease();

    /**
     * @return true when the previous key-value is present.
     */
    boolean hasPrevKv();

    /**
     * @return the previous value's bytes, from offset 0; only meaningful when {@link #hasPrevKv()}.
     */
    DirectBuffer prevValueBuffer();

    /**
     * @return the previous value's length.
     */
    int prevValueLength();

    /**
     * @return the previous key-value's create revision.
     */
    long prevCreateRevision();

    /**
     * @return the previous key-value's mod revision.
     */
    long prevModRevision();

    /**
     * @return the previous key-value's version.
     */
    long prevVersion();

    /**
     * @return the previous key-value's lease id, 0 for none; only meaningful when
     *         {@link #hasPrevKv()}.
     */
    long prevLease();

    /**
     * Copies this event into an immutable value that outlives the callback. Allocates.
     *
     * @return the copy.
     */
    Event toEvent();
}
