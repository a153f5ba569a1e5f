package io.ringwatch.engine.spi;

import org.agrona.DirectBuffer;

/**
 * One index snapshot being written beside a journal ({@link Journal#newSnapshot(long)}): the
 * engine's snapshot thread appends every key-value of its scan, then commits it, or closes it to
 * abandon it. The journal decides the format; the engine decides when to take one and when it may
 * be committed (only once the journal holds every revision the scan may have seen).
 *
 * <p>Threads: one thread, the engine's snapshot thread (or the closing thread once that stopped).
 * Allocation: none per entry in steady state.
 */
public interface SnapshotOutput extends AutoCloseable
{
    /**
     * @return the revision the snapshot is taken at: recovery replays the journal after it.
     */
    long snapshotRevision();

    /**
     * Adds one key-value with its metadata. The buffers are read during the call only.
     *
     * @param key            buffer holding the key.
     * @param keyOffset      offset of the key.
     * @param keyLength      length of the key, positive.
     * @param value          buffer holding the value.
     * @param valueOffset    offset of the value.
     * @param valueLength    length of the value.
     * @param createRevision the key's create revision.
     * @param modRevision    the key's mod revision.
     * @param version        the key's version.
     * @throws IllegalStateException if the snapshot was committed or closed.
     */
    default void append(
        DirectBuffer key, int keyOffset, int keyLength,
        DirectBuffer value, int valueOffset, int valueLength,
        long createRevision, long modRevision, long version)
    {
        append(key, keyOffset, keyLength, value, valueOffset, valueLength, createRevision, modRevision, version, 0);
    }

    /**
     * Adds one key-value with its metadata and its lease. The buffers are read during the call only.
     *
     * @param key            buffer holding the key.
     * @param keyOffset      offset of the key.
     * @param keyLength      length of the key, positive.
     * @param value          buffer holding the value.
     * @param valueOffset    offset of the value.
     * @param valueLength    length of the value.
     * @param createRevision the key's create revision.
     * @param modRevision    the key's mod revision.
     * @param version        the key's version.
     * @param lease          the key's lease id, 0 for none.
     * @throws IllegalStateException if the snapshot was committed or closed.
     */
    void append(
        DirectBuffer key, int keyOffset, int keyLength,
        DirectBuffer value, int valueOffset, int valueLength,
        long createRevision, long modRevision, long version, long lease);

    /**
     * Makes the snapshot the newest one recovery starts from, durably.
     *
     * @throws IllegalStateException if the snapshot was committed or closed.
     */
    void commit();

    /** Abandons the snapshot unless it was committed, removing what it wrote. Idempotent. */
    @Override
    void close();
}
