package io.ringwatch.engine.dispatch;

import org.agrona.DirectBuffer;
import org.agrona.collections.Object2ObjectHashMap;

import java.util.Arrays;

/**
 * Which watchers does an event key match? Routes a key to the watchers of exact keys, of key ranges
 * (prefixes arrive as ranges, see {@link io.ringwatch.engine.kv.Keys#prefixEnd(byte[])}) and of every key.
 * <p>
 * Keys are byte strings ordered as unsigned bytes, as etcd orders them. Exact keys live in a hash map
 * (O(1 + matches) per key), ranges in an interval tree (O(log n + matches) typically, O(log n) per match at
 * worst), so routing never visits watchers that do not match.
 * <p>
 * Every registration counts on its own: the same watcher added twice, under the same or different routes,
 * is reported twice; a dispatcher that needs one delivery per watcher dedups. Watchers are compared with
 * {@code equals} when removed.
 * <p>
 * <b>Threading:</b> not thread-safe; owned by one dispatcher thread, which alone may call every method.
 * <b>Allocation:</b> {@link #route} allocates nothing in steady state (it reuses a key buffer that grows
 * only when a key longer than any before arrives); registering allocates (key copies, list and tree nodes);
 * removing allocates nothing.
 *
 * @param <W> the watcher type.
 */
public final class WatchRoutes<W>
{
    private static final int INITIAL_KEY_CAPACITY = 64;

    private final Object2ObjectHashMap<ByteKey, WatcherList<W>> exactKeys = new Object2ObjectHashMap<>();
    private final IntervalTree<W> ranges = new IntervalTree<>();
    private final WatcherList<W> everyKey = new WatcherList<>();
    private final ByteKey probe = new ByteKey(new byte[INITIAL_KEY_CAPACITY], 0);
    private int exactKeyRegistrations;
    private boolean routing;

    /**
     * Registers a watcher of one exact key. Dispatcher thread only; copies the key and may allocate a list.
     *
     * @param key     the key; copied, so the caller may reuse the array.
     * @param watcher the watcher to report when this key is routed.
     * @throws IllegalArgumentException if an argument is null.
     * @throws IllegalStateException    if called from a {@link RouteVisitor} during {@link #route}.
     */
    public void addKey(final byte[] key, final W watcher)
    {
        requireNonNull(key, "key");
        requireNonNull(watcher, "watcher");
        requireNotRouting();

        WatcherList<W> watchers = exactKeys.get(probe.wrap(key));
        if (null == watchers)
        {
            watchers = new WatcherList<>();
            exactKeys.put(ByteKey.copyOf(key), watchers);
        }
        watchers.add(watcher);
        exactKeyRegistrations++;
    }

    /**
     * Removes one registration of a watcher for an exact key. Dispatcher thread only; allocates nothing;
     * costs O(watchers of that key), which are expected to be few.
     *
     * @param key     the key it was added with.
     * @param watcher the watcher it was added with.
     * @return true if a registration was removed, false if there was none.
     * @throws IllegalArgumentException if an argument is null.
     * @throws IllegalStateException    if called from a {@link RouteVisitor} during {@link #route}.
     */
    public boolean removeKey(final byte[] key, final W watcher)
    {
        requireNonNull(key, "key");
        requireNonNull(watcher, "watcher");
        requireNotRouting();

        final WatcherList<W> watchers = exactKeys.get(probe.wrap(key));
        if (null == watchers || !watchers.remove(watcher))
        {
            return false;
        }
        if (watchers.isEmpty())
        {
            exactKeys.remove(probe); // an idle key costs nothing
        }
        exactKeyRegistrations--;
        return true;
    }

    /**
     * Registers a watcher of the keys in {@code [from, toExclusive)}, as etcd's key + rangeEnd.
     * Dispatcher thread only; copies both bounds and allocates a tree node.
     *
     * @param from        the inclusive lower bound; copied.
     * @param toExclusive the exclusive upper bound, or {@code null} for every key at or above {@code from}
     *                    (etcd's rangeEnd "\0"); copied.
     * @param watcher     the watcher to report for keys in the range.
     * @throws IllegalArgumentException if {@code from} or the watcher is null, or the range is empty
     *                                  ({@code toExclusive <= from}).
     * @throws IllegalStateException    if called from a {@link RouteVisitor} during {@link #route}.
     */
    public void addRange(final byte[] from, final byte[] toExclusive, final W watcher)
    {
        requireRange(from, toExclusive);
        requireNonNull(watcher, "watcher");
        requireNotRouting();

        ranges.insert(from.clone(), null == toExclusive ? null : toExclusive.clone(), watcher);
    }

    /**
     * Removes one registration of a watcher for a range. Dispatcher thread only; allocates nothing.
     *
     * @param from        the inclusive lower bound it was added with.
     * @param toExclusive the exclusive upper bound it was added with, {@code null} for unbounded.
     * @param watcher     the watcher it was added with.
     * @return true if a registration was removed, false if there was none.
     * @throws IllegalArgumentException if {@code from} or the watcher is null, or the range is empty.
     * @throws IllegalStateException    if called from a {@link RouteVisitor} during {@link #route}.
     */
    public boolean removeRange(final byte[] from, final byte[] toExclusive, final W watcher)
    {
        requireRange(from, toExclusive);
        requireNonNull(watcher, "watcher");
        requireNotRouting();

        return ranges.remove(from, toExclusive, watcher);
    }

    /**
     * Registers a watcher of every key. Dispatcher thread only; may grow a list.
     *
     * @param watcher the watcher to report for every routed key.
     * @throws IllegalArgumentException if the watcher is null.
     * @throws IllegalStateException    if called from a {@link RouteVisitor} during {@link #route}.
     */
    public void addAll(final W watcher)
    {
        requireNonNull(watcher, "watcher");
        requireNotRouting();

        everyKey.add(watcher);
    }

    /**
     * Removes one "every key" registration of a watcher. Dispatcher thread only; allocates nothing;
     * costs O("every key" watchers), which are expected to be few.
     *
     * @param watcher the watcher it was added with.
     * @return true if a registration was removed, false if there was none.
     * @throws IllegalArgumentException if the watcher is null.
     * @throws IllegalStateException    if called from a {@link RouteVisitor} during {@link #route}.
     */
    public boolean removeAll(final W watcher)
    {
        requireNonNull(watcher, "watcher");
        requireNotRouting();

        return everyKey.remove(watcher);
    }

    /**
     * Calls {@code visitor.onMatch} once per registration that contains the key: "every key" watchers first,
     * then exact-key watchers, then range watchers in order of their lower bound. Dispatcher thread only;
     * allocates nothing in steady state. The visitor must not add or remove routes.
     *
     * @param key     buffer holding the key.
     * @param offset  where the key starts in the buffer.
     * @param length  the key length in bytes.
     * @param visitor receives each matching watcher.
     * @return the number of matches.
     * @throws IllegalArgumentException  if the buffer or visitor is null or the length is negative.
     * @throws IndexOutOfBoundsException if the key lies outside the buffer.
     * @throws IllegalStateException     if called from a {@link RouteVisitor} during another route.
     */
    public int route(final DirectBuffer key, final int offset, final int length, final RouteVisitor<W> visitor)
    {
        requireNonNull(key, "key");
        requireNonNull(visitor, "visitor");
        if (length < 0)
        {
            throw new IllegalArgumentException("key length must not be negative: " + length);
        }
        requireNotRouting();

        final ByteKey routed = probe.wrap(key, offset, length);
        routing = true;
        try
        {
            int matches = everyKey.visit(visitor);
            final WatcherList<W> exact = exactKeys.get(routed);
            if (null != exact)
            {
                matches += exact.visit(visitor);
            }
            return matches + ranges.stab(routed.bytes, routed.length, visitor);
        }
        finally
        {
            routing = false;
        }
    }

    /**
     * Number of registrations of every kind. Dispatcher thread only; allocates nothing.
     *
     * @return the number of registrations.
     */
    public int size()
    {
        return everyKey.size() + exactKeyRegistrations + ranges.size();
    }

    private void requireNotRouting()
    {
        if (routing)
        {
            throw new IllegalStateException("routes must not change while a key is being routed");
        }
    }

    private static void requireRange(final byte[] from, final byte[] toExclusive)
    {
        requireNonNull(from, "from");
        if (null != toExclusive && Arrays.compareUnsigned(from, toExclusive) >= 0)
        {
            throw new IllegalArgumentException(
                "empty range: from " + Arrays.toString(from) + " is not below toExclusive " + Arrays.toString(toExclusive));
        }
    }

    private static void requireNonNull(final Object argument, final String name)
    {
        if (null == argument)
        {
            throw new IllegalArgumentException(name + " must not be null");
        }
    }

    /**
     * Key bytes with equality and hash over their content. Stored keys own an exact copy; the single probe
     * instance is rewrapped for each lookup so that lookups allocate nothing.
     */
    private static final class ByteKey
    {
        private byte[] bytes;
        private int length;
        private int hash;

        private ByteKey(final byte[] bytes, final int length)
        {
            this.bytes = bytes;
            this.length = length;
            this.hash = hashOf(bytes, length);
        }

        static ByteKey copyOf(final byte[] key)
        {
            return new ByteKey(key.clone(), key.length);
        }

        ByteKey wrap(final byte[] key)
        {
            ensureCapacity(key.length);
            System.arraycopy(key, 0, bytes, 0, key.length);
            return rehash(key.length);
        }

        ByteKey wrap(final DirectBuffer buffer, final int offset, final int keyLength)
        {
            ensureCapacity(keyLength);
            buffer.getBytes(offset, bytes, 0, keyLength);
            return rehash(keyLength);
        }

        private void ensureCapacity(final int required)
        {
            if (required > bytes.length)
            {
                bytes = new byte[Math.max(required, bytes.length * 2)];
            }
        }

        private ByteKey rehash(final int keyLength)
        {
            length = keyLength;
            hash = hashOf(bytes, keyLength);
            return this;
        }

        private static int hashOf(final byte[] bytes, final int length)
        {
            int h = 1;
            for (int i = 0; i < length; i++)
            {
                h = 31 * h + bytes[i];
            }
            return h;
        }

        @Override
        public boolean equals(final Object other)
        {
            if (!(other instanceof ByteKey))
            {
                return false;
            }
            final ByteKey that = (ByteKey)other;
            return hash == that.hash && Arrays.equals(bytes, 0, length, that.bytes, 0, that.length);
        }

        @Override
        public int hashCode()
        {
            return hash;
        }
    }

    /**
     * The watchers registered on one route, in registration order; a watcher may appear more than once.
     */
    private static final class WatcherList<W>
    {
        private static final int INITIAL_CAPACITY = 2;

        private Object[] watchers = new Object[INITIAL_CAPACITY];
        private int size;

        void add(final W watcher)
        {
            if (size == watchers.length)
            {
                watchers = Arrays.copyOf(watchers, size * 2);
            }
            watchers[size++] = watcher;
        }

        boolean remove(final W watcher)
        {
            for (int i = 0; i < size; i++)
            {
                if (watchers[i].equals(watcher))
                {
                    System.arraycopy(watchers, i + 1, watchers, i, size - i - 1);
                    watchers[--size] = null;
                    return true;
                }
            }
            return false;
        }

        @SuppressWarnings("unchecked")
        int visit(final RouteVisitor<W> visitor)
        {
            final Object[] watchers = this.watchers;
            final int size = this.size;
            for (int i = 0; i < size; i++)
            {
                visitor.onMatch((W)watchers[i]);
            }
            return size;
        }

        boolean isEmpty()
        {
            return 0 == size;
        }

        int size()
        {
            return size;
        }
    }
}
