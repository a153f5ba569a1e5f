package io.ringwatch.engine.internal.dispatch;

import io.ringwatch.engine.internal.index.ByteKey;

import java.util.Arrays;

/**
 * A hash table from exact keys (byte strings) to one value each, open-addressed with linear probing and
 * backward-shift removal. It stores the caller's key arrays themselves, side by side with the values in
 * two parallel arrays: no wrapper object and no node per key, so an entry costs its two slots (8 bytes
 * with compressed oops, about 11 at the table's load) and nothing else. {@link WatchRoutes} keeps its
 * exact-key watchers in it, where a million idle watchers each paid a 24-byte key wrapper before.
 * <p>
 * Lookups take a key array and a length, so a router may probe with a reused buffer longer than the key.
 * <p>
 * <b>Threading:</b> not thread-safe; one owner thread. <b>Allocation:</b> lookups and removals allocate
 * nothing; {@link #put} allocates only when the table grows (it doubles at three quarters full and never
 * shrinks, as a hash map does).
 */
final class ExactKeyTable
{
    private static final int INITIAL_CAPACITY = 16;

    private byte[][] keys = new byte[INITIAL_CAPACITY][];
    private Object[] values = new Object[INITIAL_CAPACITY];
    private int size;

    /**
     * The value of a key.
     *
     * @param key    an array whose first {@code length} bytes are the key.
     * @param length the key's length.
     * @return the value, or null if the key has none.
     */
    Object get(final byte[] key, final int length)
    {
        final int index = indexOf(key, length);
        return index < 0 ? null : values[index];
    }

    /**
     * Sets the value of a key. A new key is stored as the given array itself, not copied, so the caller
     * must not change it afterwards; for a key already present the stored array stays and only the value
     * is replaced.
     *
     * @param key   the key, kept as it is when new.
     * @param value the value, not null.
     */
    void put(final byte[] key, final Object value)
    {
        final int existing = indexOf(key, key.length);
        if (existing >= 0)
        {
            values[existing] = value;
            return;
        }
        if (4 * (size + 1) > 3 * keys.length)
        {
            grow();
        }
        insert(key, value);
        size++;
    }

    /**
     * Removes a key and its value.
     *
     * @param key the key.
     * @return the value removed, or null if the key had none.
     */
    Object remove(final byte[] key)
    {
        final int index = indexOf(key, key.length);
        if (index < 0)
        {
            return null;
        }
        final Object removed = values[index];
        deleteAt(index);
        size--;
        return removed;
    }

    /**
     * @return the number of keys.
     */
    int size()
    {
        return size;
    }

    /**
     * @return true when the table holds no key.
     */
    boolean isEmpty()
    {
        return 0 == size;
    }

    /**
     * The stored array of a key, so a test can tell that the table keeps the caller's array and no copy.
     *
     * @param key the key.
     * @return the array stored for it, or null if absent.
     */
    byte[] storedKey(final byte[] key)
    {
        final int index = indexOf(key, key.length);
        return index < 0 ? null : keys[index];
    }

    private int indexOf(final byte[] key, final int length)
    {
        final byte[][] keys = this.keys;
        final int mask = keys.length - 1;
        int index = slot(ByteKey.hashOf(key, length), mask);
        byte[] candidate;
        while (null != (candidate = keys[index]))
        {
            if (candidate.length == length && Arrays.equals(candidate, 0, length, key, 0, length))
            {
                return index;
            }
            index = (index + 1) & mask;
        }
        return -1;
    }

    private void insert(final byte[] key, final Object value)
    {
        final int mask = keys.length - 1;
        int index = slot(ByteKey.hashOf(key, key.length), mask);
        while (null != keys[index])
        {
            index = (index + 1) & mask;
        }
        keys[index] = key;
        values[index] = value;
    }

    /** Empties a slot and shifts back the entries after it that would no longer be found (Knuth's algorithm R). */
    private void deleteAt(final int deleted)
    {
        final byte[][] keys = this.keys;
        final Object[] values = this.values;
        final int mask = keys.length - 1;
        int hole = deleted;
        int index = (hole + 1) & mask;
        byte[] candidate;
        while (null != (candidate = keys[index]))
        {
            final int home = slot(ByteKey.hashOf(candidate, candidate.length), mask);
            // The entry may fill the hole unless its home lies cyclically in (hole, index].
            if (((index - home) & mask) >= ((index - hole) & mask))
            {
                keys[hole] = candidate;
                values[hole] = values[index];
                hole = index;
            }
            index = (index + 1) & mask;
        }
        keys[hole] = null;
        values[hole] = null;
    }

    private void grow()
    {
        final byte[][] oldKeys = keys;
        final Object[] oldValues = values;
        keys = new byte[oldKeys.length * 2][];
        values = new Object[oldKeys.length * 2];
        for (int i = 0; i < oldKeys.length; i++)
        {
            if (null != oldKeys[i])
            {
                insert(oldKeys[i], oldValues[i]);
            }
        }
    }

    private static int slot(final int hash, final int mask)
    {
        // Spreads the polynomial hash, whose low bits alone cluster for keys that differ in their last bytes.
        final int spread = hash * 0x9E3779B9;
        return (spread ^ (spread >>> 16)) & mask;
    }
}
