package io.ringwatch.engine.spi;

import org.agrona.DirectBuffer;

/**
 * Receives the key-values of an index snapshot during recovery. Called on the recovering
 * thread; the buffers are valid only during the call.
 */
@FunctionalInterface
public interface SnapshotSink
{
    /**
     * Says how many key-values follow, before the first: the recovering index makes room for them
     * at once rather than growing as they come. Optional for a journal (the default ignores it).
     *
     * @param entries the number of {@code entry} calls that follow, 0 or more.
     */
    default void expectEntries(long entries)
    {
    }

    /**
     * One key-value of the snapshot.
     *
     * @param key            buffer holding the key.
     * @param keyOffset      offset of the key.
     * @param keyLength      length of the key.
     * @param value          buffer holding the value.
     * @param valueOffset    offset of the value.
     * @param valueLength    length of the value.
     * @param createRevision the key's createRevision.
     * @param modRevision    the key's modRevision.
     * @param version        the key's version.
     */
    default void entry(
        DirectBuffer key, int keyOffset, int keyLength,
        DirectBuffer value, int valueOffset, int valueLength,
        long createRevision, long modRevision, long version)
    {
        entry(key, keyOffset, keyLength, value, valueOffset, valueLength, createRevision, modRevision, version, 0);
    }

    /**
     * One key-value of the snapshot, with its lease.
     *
     * @param key            buffer holding the key.
     * @param keyOffset      offset of the key.
     * @param keyLength      length of the key.
     * @param value          buffer holding the value.
     * @param valueOffset    offset of the value.
     * @param valueLength    length of the value.
     * @param createRevision the key's createRevision.
     * @param modRevision    the key's modRevision.
     * @param version        the key's version.
     * @param lease          the key's lease id, 0 for none.
     */
    void entry(
        DirectBuffer key, int keyOffset, int keyLength,
        DirectBuffer value, int valueOffset, int valueLength,
        long createRevision, long modRevision, long version, long lease);
}
