package io.ringwatch.engine.direct;

import org.agrona.DirectBuffer;

/**
 * A reusable holder that a zero-allocation point read fills ({@code RingWatch.get(DirectBuffer,
 * int, int, DirectEntry)}): the key, its value and its etcd metadata. The engine copies into it,
 * so what it holds stays valid after the call and never changes under the reader until the next
 * read into it. Get one from {@code RingWatch.newDirectEntry()}; the engine fills only its own.
 *
 * <p>One thread at a time: do not share an instance between concurrent reads. Allocation: its
 * buffers grow to the largest key and value read, then reuse allocates nothing (except
 * {@link #keyBytes()} and {@link #valueBytes()}, which copy out).
 */
public interface DirectEntry
{
    /**
     * @return whether the last call that filled this holder found an entry; false means the other
     *         accessors describe nothing.
     */
    boolean found();

    /**
     * @return buffer whose first {@link #keyLength()} bytes are the key; valid until the holder is
     *         reused; allocates nothing.
     */
    DirectBuffer key();

    /**
     * @return number of key bytes.
     */
    int keyLength();

    /**
     * @return buffer whose first {@link #valueLength()} bytes are the value; valid until the
     *         holder is reused; allocates nothing.
     */
    DirectBuffer value();

    /**
     * @return number of value bytes.
     */
    int valueLength();

    /**
     * @return revision at which the key was created (since its last deletion).
     */
    long createRevision();

    /**
     * @return revision of the last change to the key.
     */
    long modRevision();

    /**
     * @return number of changes since the key was created, 1 for a new key.
     */
    long version();

    /**
     * @return the id of the lease the key is attached to, 0 for none (etcd's {@code lease}).
     */
    long lease();

    /**
     * Copies the key out; allocates the returned array. For convenience off the hot path.
     *
     * @return a new array holding the key.
     */
    byte[] keyBytes();

    /**
     * Copies the value out; allocates the returned array. For convenience off the hot path.
     *
     * @return a new array holding the value.
     */
    byte[] valueBytes();
}
