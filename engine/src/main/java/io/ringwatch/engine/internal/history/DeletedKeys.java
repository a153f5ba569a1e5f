package io.ringwatch.engine.internal.history;

import io.ringwatch.engine.internal.index.OffHeapIndex;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The keys a newest-first replay met first as deletes, so that their older puts are skipped: an
 * off-heap set (an {@link OffHeapIndex} of keys with empty values), made at the first delete, so
 * that a log without deletes costs nothing but a null check per put.
 * <p>
 * Threads: the opening thread only. Allocation: the set at the first delete, then only as it grows;
 * {@link #close} frees it.
 */
final class DeletedKeys implements AutoCloseable
{
    private static final DirectBuffer EMPTY = new UnsafeBuffer(new byte[0]);

    private OffHeapIndex keys;

    /**
     * @param key       buffer holding the key.
     * @param keyOffset offset of the key.
     * @param keyLength the key's length, at least 1.
     * @return whether the key was added (met first as a delete).
     */
    boolean holds(final DirectBuffer key, final int keyOffset, final int keyLength)
    {
        return keys != null && keys.contains(key, keyOffset, keyLength);
    }

    /**
     * Adds a key; nothing if it is held already.
     *
     * @param key       buffer holding the key.
     * @param keyOffset offset of the key.
     * @param keyLength the key's length, at least 1.
     */
    void add(final DirectBuffer key, final int keyOffset, final int keyLength)
    {
        if (keys == null)
        {
            keys = new OffHeapIndex(1024);
        }
        keys.restoreIfAbsent(key, keyOffset, keyLength, EMPTY, 0, 0, 0, 1, 1, 1);
    }

    @Override
    public void close()
    {
        if (keys != null)
        {
            keys.close();
        }
    }
}
