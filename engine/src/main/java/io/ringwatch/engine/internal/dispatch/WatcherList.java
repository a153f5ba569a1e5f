package io.ringwatch.engine.internal.dispatch;

import java.util.Arrays;

/**
 * The watchers registered on one route, in registration order; a watcher may appear more than once.
 * Not thread-safe: owned by one dispatcher thread with its routes. Adding may grow the array; visiting
 * and removing allocate nothing.
 */
final class WatcherList<W>
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
