package io.ringwatch.engine.internal.dispatch;

import io.ringwatch.engine.internal.index.ByteKey;
import org.agrona.collections.Object2ObjectHashMap;

import java.util.Arrays;

/**
 * The watchers of key prefixes, found by hashing instead of searching: a map from prefix bytes to its
 * watchers, and the distinct prefix lengths registered, in ascending order. Routing a key walks it once,
 * extending a polynomial hash byte by byte ({@link ByteKey#extendHash}), and at each registered length
 * probes the map with the key's prefix of that length: O(key length + distinct lengths + matches),
 * however many prefixes are registered. Prefix watches are the common watch (Kubernetes watches
 * {@code /registry/pods/} and {@code /registry/pods/<namespace>/}), and an interval tree would pay a
 * search with byte comparisons per event for them.
 * <p>
 * Every registration counts on its own, as in {@link WatchRoutes}. Not thread-safe: owned by one
 * dispatcher thread. Routing allocates nothing; registering allocates (a key copy, a list, and the length
 * array when a new length appears); removing allocates only when a length disappears.
 *
 * @param <W> the watcher type.
 */
final class PrefixRoutes<W>
{
    private final Object2ObjectHashMap<ByteKey, WatcherList<W>> byPrefix = new Object2ObjectHashMap<>();
    private final ByteKey lookup = ByteKey.probe(0);
    private final ByteKey prefixView = ByteKey.probe(0);
    /** The distinct prefix lengths, ascending, and beside each how many distinct prefixes have it. */
    private int[] lengths = new int[0];
    private int[] prefixesOfLength = new int[0];
    private int size;

    /**
     * Registers a watcher of the keys that start with {@code prefix} (not empty: the empty prefix is every
     * key, which {@link WatchRoutes} keeps apart).
     *
     * @param prefix  the prefix; copied.
     * @param watcher the watcher.
     */
    void add(final byte[] prefix, final W watcher)
    {
        WatcherList<W> watchers = byPrefix.get(lookup.wrap(prefix));
        if (watchers == null)
        {
            watchers = new WatcherList<>();
            byPrefix.put(ByteKey.copyOf(prefix), watchers);
            countPrefixOfLength(prefix.length);
        }
        watchers.add(watcher);
        size++;
    }

    /**
     * Removes one registration of a watcher for a prefix.
     *
     * @return true if a registration was removed, false if there was none.
     */
    boolean remove(final byte[] prefix, final W watcher)
    {
        final WatcherList<W> watchers = byPrefix.get(lookup.wrap(prefix));
        if (watchers == null || !watchers.remove(watcher))
        {
            return false;
        }
        if (watchers.isEmpty())
        {
            byPrefix.remove(lookup);
            uncountPrefixOfLength(prefix.length);
        }
        size--;
        return true;
    }

    /**
     * Visits every registration whose prefix starts {@code key}, shorter prefixes first.
     *
     * @param key       the key's bytes (only the first {@code keyLength} count).
     * @param keyLength the key's length.
     * @param visitor   receives each matching watcher.
     * @return the number of matches.
     */
    int route(final byte[] key, final int keyLength, final RouteVisitor<W> visitor)
    {
        final int[] lengths = this.lengths;
        int matches = 0;
        int hash = ByteKey.EMPTY_HASH;
        int hashed = 0;
        for (final int length : lengths)
        {
            if (length > keyLength)
            {
                break;
            }
            while (hashed < length)
            {
                hash = ByteKey.extendHash(hash, key[hashed++]);
            }
            final WatcherList<W> watchers = byPrefix.get(prefixView.alias(key, length, hash));
            if (watchers != null)
            {
                matches += watchers.visit(visitor);
            }
        }
        return matches;
    }

    /**
     * @return the number of registrations.
     */
    int size()
    {
        return size;
    }

    private void countPrefixOfLength(final int length)
    {
        final int at = Arrays.binarySearch(lengths, length);
        if (at >= 0)
        {
            prefixesOfLength[at]++;
            return;
        }
        final int insertAt = -at - 1;
        lengths = inserted(lengths, insertAt, length);
        prefixesOfLength = inserted(prefixesOfLength, insertAt, 1);
    }

    private void uncountPrefixOfLength(final int length)
    {
        final int at = Arrays.binarySearch(lengths, length);
        if (--prefixesOfLength[at] == 0)
        {
            lengths = removed(lengths, at);
            prefixesOfLength = removed(prefixesOfLength, at);
        }
    }

    private static int[] inserted(final int[] values, final int at, final int value)
    {
        final int[] grown = new int[values.length + 1];
        System.arraycopy(values, 0, grown, 0, at);
        grown[at] = value;
        System.arraycopy(values, at, grown, at + 1, values.length - at);
        return grown;
    }

    private static int[] removed(final int[] values, final int at)
    {
        final int[] shrunk = new int[values.length - 1];
        System.arraycopy(values, 0, shrunk, 0, at);
        System.arraycopy(values, at + 1, shrunk, at, shrunk.length - at);
        return shrunk;
    }
}
