package io.ringwatch.engine.internal.dispatch;

import io.ringwatch.engine.kv.Keys;
import org.agrona.DirectBuffer;

import java.util.Arrays;

/**
 * Which watchers does an event key match? Routes a key to the watchers of exact keys, of key ranges
 * (prefixes arrive as ranges, see {@link io.ringwatch.engine.kv.Keys#prefixEnd(byte[])}) and of every key.
 * <p>
 * Keys are byte strings ordered as unsigned bytes, as etcd orders them. Exact keys live in an
 * {@link ExactKeyTable}, open-addressed over the key arrays themselves with no wrapper per key
 * (O(1 + matches) per key); prefix-shaped ranges ({@code [p, prefixEnd(p))}) in {@link PrefixRoutes}, a
 * hash map probed once per distinct prefix length (O(key length + lengths + matches)); other ranges in an
 * interval tree (O(log n + matches) typically, O(log n) per match at worst). So routing never visits
 * watchers that do not match.
 * <p>
 * Every registration counts on its own: the same watcher added twice, under the same or different routes,
 * is reported twice; a dispatcher that needs one delivery per watcher dedups. Watchers are compared with
 * {@code equals} when removed.
 * <p>
 * <b>Threading:</b> not thread-safe; owned by one dispatcher thread, which alone may call every method.
 * <b>Allocation:</b> {@link #route} allocates nothing in steady state (it reuses a key buffer that grows
 * only when a key longer than any before arrives); registering allocates (key copies, list and tree nodes);
 * removing allocates nothing, except when the last prefix of some length goes.
 *
 * @param <W> the watcher type.
 */
public final class WatchRoutes<W>
{
    private static final int INITIAL_KEY_CAPACITY = 64;

    /**
     * Each key's one watcher, or a {@link WatcherList} once it has more: most keys have one, and a list costs 48
     * bytes. Keyed by the key arrays themselves, no wrapper per key.
     */
    private final ExactKeyTable exactKeys = new ExactKeyTable();
    private final PrefixRoutes<W> prefixes = new PrefixRoutes<>();
    private final IntervalTree<W> ranges = new IntervalTree<>();
    private final WatcherList<W> everyKey = new WatcherList<>();
    /** The routed key, copied out of its buffer once per route; grows only for a longer key than any before. */
    private byte[] routedKey = new byte[INITIAL_KEY_CAPACITY];
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
        addKey(key, watcher, true);
    }

    /**
     * Registers a watcher of one exact key given as an array that never changes (an immutable request's
     * key), which the routes then keep instead of a copy: one copy of the key per watcher, not two.
     * Dispatcher thread only; may allocate a list.
     *
     * @param key     the key; kept, so nobody may change it from now on.
     * @param watcher the watcher to report when this key is routed.
     * @throws IllegalArgumentException if an argument is null.
     * @throws IllegalStateException    if called from a {@link RouteVisitor} during {@link #route}.
     */
    public void addImmutableKey(final byte[] key, final W watcher)
    {
        addKey(key, watcher, false);
    }

    private void addKey(final byte[] key, final W watcher, final boolean copy)
    {
        requireNonNull(key, "key");
        requireNonNull(watcher, "watcher");
        requireNotRouting();

        final Object registered = exactKeys.get(key, key.length);
        if (null == registered)
        {
            exactKeys.put(copy ? key.clone() : key, watcher);
        }
        else if (registered instanceof WatcherList)
        {
            WatchRoutes.<W>asList(registered).add(watcher);
        }
        else
        {
            final WatcherList<W> watchers = new WatcherList<>();
            watchers.add(WatchRoutes.<W>asWatcher(registered));
            watchers.add(watcher);
            exactKeys.put(key, watchers); // replaces the value; the stored key stays
        }
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

        final Object registered = exactKeys.get(key, key.length);
        if (null == registered)
        {
            return false;
        }
        if (registered instanceof WatcherList)
        {
            final WatcherList<W> watchers = asList(registered);
            if (!watchers.remove(watcher))
            {
                return false;
            }
            if (watchers.isEmpty())
            {
                exactKeys.remove(key); // an idle key costs nothing
            }
        }
        else if (registered.equals(watcher))
        {
            exactKeys.remove(key);
        }
        else
        {
            return false;
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

        if (isPrefix(from, toExclusive))
        {
            prefixes.add(from, watcher);
            return;
        }
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

        return isPrefix(from, toExclusive) ? prefixes.remove(from, watcher) : ranges.remove(from, toExclusive, watcher);
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
     * then exact-key watchers, then prefix watchers (shorter prefixes first), then other range watchers in
     * order of their lower bound. Dispatcher thread only;
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

        if (length > routedKey.length)
        {
            routedKey = new byte[Math.max(length, routedKey.length * 2)];
        }
        final byte[] routed = routedKey;
        key.getBytes(offset, routed, 0, length);
        routing = true;
        try
        {
            int matches = everyKey.visit(visitor);
            if (!exactKeys.isEmpty())
            {
                // Hashed only when exact-key watchers exist: prefix-only routing never needs the whole key's hash.
                final Object exact = exactKeys.get(routed, length);
                if (exact instanceof WatcherList)
                {
                    matches += WatchRoutes.<W>asList(exact).visit(visitor);
                }
                else if (null != exact)
                {
                    visitor.onMatch(WatchRoutes.<W>asWatcher(exact));
                    matches++;
                }
            }
            matches += prefixes.route(routed, length, visitor);
            return matches + ranges.stab(routed, length, visitor);
        }
        finally
        {
            routing = false;
        }
    }

    /**
     * The array the exact-key routes store as a key, so a test can tell that they keep one array per key and
     * no wrapper or copy. Dispatcher thread only; allocates nothing.
     *
     * @param key the key.
     * @return the stored array, or null if the key has no watcher.
     */
    byte[] storedExactKey(final byte[] key)
    {
        return exactKeys.storedKey(key);
    }

    /**
     * Number of registrations of every kind. Dispatcher thread only; allocates nothing.
     *
     * @return the number of registrations.
     */
    public int size()
    {
        return everyKey.size() + exactKeyRegistrations + prefixes.size() + ranges.size();
    }

    /**
     * A range of exactly the keys that start with {@code from}: {@code [from, prefixEnd(from))}, as
     * {@link io.ringwatch.engine.kv.KeyRange#prefix(byte[])} builds it.
     */
    private static boolean isPrefix(final byte[] from, final byte[] toExclusive)
    {
        return null != toExclusive && from.length > 0 && Arrays.equals(toExclusive, Keys.prefixEnd(from));
    }

    @SuppressWarnings("unchecked")
    private static <W> WatcherList<W> asList(final Object registered)
    {
        return (WatcherList<W>)registered;
    }

    @SuppressWarnings("unchecked")
    private static <W> W asWatcher(final Object registered)
    {
        return (W)registered;
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
}
