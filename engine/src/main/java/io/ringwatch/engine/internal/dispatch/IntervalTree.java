package io.ringwatch.engine.internal.dispatch;

import java.util.Arrays;

/**
 * Key ranges {@code [from, to)} of watchers, answering "which ranges contain this key?" (stabbing queries).
 * <p>
 * A treap ordered by {@code (from, to, watcher hash, insertion id)}, so that one of thousands of watchers of
 * the same range is found for removal in O(log n). Every node also holds the largest {@code to} of its
 * subtree ({@code null}, meaning unbounded, counts as +infinity). Keys compare as unsigned bytes, as etcd
 * orders them. Insert and delete cost O(log n) expected. A stabbing query walks the search path of the key
 * (O(log n)) and, off that path, enters only subtrees whose largest {@code to} is above the key, each of
 * which holds a match: O(log n + m) when the m matches cluster, O((1 + m) log n) at worst, never O(n) for
 * few matches.
 * <p>
 * Single-threaded: owned by the dispatcher thread that owns the enclosing {@link WatchRoutes}. Insert
 * allocates one node; delete and query allocate nothing. Arrays passed in are kept, not copied: the caller
 * owns copying.
 *
 * @param <W> the watcher type.
 */
final class IntervalTree<W>
{
    private Node<W> root;
    private int size;
    private long nextId;
    private int priorities = 0x9E3779B9;

    /**
     * Adds one range registration; the same range and watcher may be added more than once.
     * Dispatcher thread only; allocates one node.
     *
     * @param from        the inclusive lower bound.
     * @param toExclusive the exclusive upper bound, or {@code null} for unbounded; above {@code from}.
     * @param watcher     the watcher to report for keys in the range.
     */
    void insert(final byte[] from, final byte[] toExclusive, final W watcher)
    {
        root = insert(root, new Node<>(from, toExclusive, watcher, nextId++, nextPriority()));
        size++;
    }

    /**
     * Removes one registration equal to the given range and watcher (watchers compared with {@code equals}).
     * Dispatcher thread only; allocates nothing.
     *
     * @param from        the inclusive lower bound.
     * @param toExclusive the exclusive upper bound, or {@code null} for unbounded.
     * @param watcher     the watcher of the registration.
     * @return true if a registration was removed, false if none matched.
     */
    boolean remove(final byte[] from, final byte[] toExclusive, final W watcher)
    {
        final Node<W> target = find(root, from, toExclusive, watcher, watcher.hashCode());
        if (null == target)
        {
            return false;
        }

        root = delete(root, target);
        size--;
        return true;
    }

    /**
     * Calls the visitor once for every registration whose range contains the key.
     * Dispatcher thread only; allocates nothing.
     *
     * @param key       array holding the key in its first {@code keyLength} bytes.
     * @param keyLength the key length.
     * @param visitor   receives each matching watcher.
     * @return the number of matches.
     */
    int stab(final byte[] key, final int keyLength, final RouteVisitor<W> visitor)
    {
        return stab(root, key, keyLength, visitor);
    }

    /**
     * Number of registrations. Dispatcher thread only.
     *
     * @return the number of registrations held.
     */
    int size()
    {
        return size;
    }

    private static <W> int stab(Node<W> node, final byte[] key, final int keyLength, final RouteVisitor<W> visitor)
    {
        int matches = 0;
        // Recurse left, iterate right: depth stays O(log n) and a subtree ending at or below the key is skipped.
        while (null != node && endsAfter(node.maxTo, key, keyLength))
        {
            matches += stab(node.left, key, keyLength, visitor);
            if (Arrays.compareUnsigned(node.from, 0, node.from.length, key, 0, keyLength) > 0)
            {
                return matches; // this node and its right subtree all start after the key
            }

            if (endsAfter(node.to, key, keyLength))
            {
                visitor.onMatch(node.watcher);
                matches++;
            }
            node = node.right;
        }

        return matches;
    }

    private static boolean endsAfter(final byte[] toExclusive, final byte[] key, final int keyLength)
    {
        return null == toExclusive || Arrays.compareUnsigned(toExclusive, 0, toExclusive.length, key, 0, keyLength) > 0;
    }

    private static <W> Node<W> insert(final Node<W> node, final Node<W> fresh)
    {
        if (null == node)
        {
            return fresh;
        }

        Node<W> top = node;
        if (compareOrder(fresh, node) < 0)
        {
            node.left = insert(node.left, fresh);
            if (node.left.priority > node.priority)
            {
                top = rotateRight(node);
            }
        }
        else
        {
            node.right = insert(node.right, fresh);
            if (node.right.priority > node.priority)
            {
                top = rotateLeft(node);
            }
        }
        updateMaxTo(top);
        return top;
    }

    private static <W> Node<W> delete(final Node<W> node, final Node<W> target)
    {
        if (node == target)
        {
            return merge(node.left, node.right);
        }

        if (compareOrder(target, node) < 0)
        {
            node.left = delete(node.left, target);
        }
        else
        {
            node.right = delete(node.right, target);
        }
        updateMaxTo(node);
        return node;
    }

    private static <W> Node<W> merge(final Node<W> left, final Node<W> right)
    {
        if (null == left)
        {
            return right;
        }
        if (null == right)
        {
            return left;
        }

        if (left.priority > right.priority)
        {
            left.right = merge(left.right, right);
            updateMaxTo(left);
            return left;
        }

        right.left = merge(left, right.left);
        updateMaxTo(right);
        return right;
    }

    private static <W> Node<W> find(
        final Node<W> node, final byte[] from, final byte[] toExclusive, final W watcher, final int watcherHash)
    {
        if (null == node)
        {
            return null;
        }

        final int cmp = compareRange(from, toExclusive, watcherHash, node);
        if (cmp < 0)
        {
            return find(node.left, from, toExclusive, watcher, watcherHash);
        }
        if (cmp > 0)
        {
            return find(node.right, from, toExclusive, watcher, watcherHash);
        }

        if (node.watcher.equals(watcher))
        {
            return node;
        }
        // Duplicates and hash collisions share the ordering key and sit on both sides, ordered by insertion id.
        final Node<W> onLeft = find(node.left, from, toExclusive, watcher, watcherHash);
        return null != onLeft ? onLeft : find(node.right, from, toExclusive, watcher, watcherHash);
    }

    private static <W> Node<W> rotateRight(final Node<W> node)
    {
        final Node<W> pivot = node.left;
        node.left = pivot.right;
        pivot.right = node;
        updateMaxTo(node);
        return pivot;
    }

    private static <W> Node<W> rotateLeft(final Node<W> node)
    {
        final Node<W> pivot = node.right;
        node.right = pivot.left;
        pivot.left = node;
        updateMaxTo(node);
        return pivot;
    }

    private static <W> void updateMaxTo(final Node<W> node)
    {
        byte[] max = node.to;
        if (null != node.left)
        {
            max = laterEnd(max, node.left.maxTo);
        }
        if (null != node.right)
        {
            max = laterEnd(max, node.right.maxTo);
        }
        node.maxTo = max;
    }

    private static byte[] laterEnd(final byte[] a, final byte[] b)
    {
        if (null == a || null == b)
        {
            return null;
        }
        return Arrays.compareUnsigned(a, b) >= 0 ? a : b;
    }

    private static <W> int compareOrder(final Node<W> a, final Node<W> b)
    {
        final int cmp = compareRange(a.from, a.to, a.watcherHash, b);
        return 0 != cmp ? cmp : Long.compare(a.id, b.id);
    }

    private static <W> int compareRange(final byte[] from, final byte[] to, final int watcherHash, final Node<W> node)
    {
        int cmp = Arrays.compareUnsigned(from, node.from);
        if (0 == cmp)
        {
            cmp = compareEnds(to, node.to);
        }
        return 0 != cmp ? cmp : Integer.compare(watcherHash, node.watcherHash);
    }

    private static int compareEnds(final byte[] a, final byte[] b)
    {
        if (null == a)
        {
            return null == b ? 0 : 1; // unbounded sorts last
        }
        return null == b ? -1 : Arrays.compareUnsigned(a, b);
    }

    private int nextPriority()
    {
        // xorshift32: deterministic, so the tree shape is reproducible from the sequence of operations.
        int x = priorities;
        x ^= x << 13;
        x ^= x >>> 17;
        x ^= x << 5;
        priorities = x;
        return x;
    }

    private static final class Node<W>
    {
        final byte[] from;
        final byte[] to;
        final W watcher;
        final int watcherHash;
        final long id;
        final int priority;
        Node<W> left;
        Node<W> right;
        byte[] maxTo;

        Node(final byte[] from, final byte[] to, final W watcher, final long id, final int priority)
        {
            this.from = from;
            this.to = to;
            this.watcher = watcher;
            this.watcherHash = watcher.hashCode();
            this.id = id;
            this.priority = priority;
            this.maxTo = to;
        }
    }
}
