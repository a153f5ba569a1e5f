package io.ringwatch.engine.internal.secondary;

import io.ringwatch.engine.errors.IndexFunctionException;
import io.ringwatch.engine.secondary.IndexFunction;
import io.ringwatch.ringbuffer.EventRecord;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;

/**
 * Routes events to watch-by-index watchers: per index function, a hash map from index value to
 * its watchers. For each event the function runs once on the old and once on the new value and
 * each derived value is looked up, so the cost is O(functions with watchers + their values +
 * matching watchers), whatever the number of watchers of other values.
 *
 * <p>Dispatcher thread only (like {@code WatchRoutes}). Routing allocates nothing in steady
 * state; adding a route allocates its map entry.
 *
 * @param <W> the watcher type.
 */
public final class IndexRoutes<W>
{
    private final ArrayList<FunctionRoutes<W>> functions = new ArrayList<>();
    private final IndexValues olds = new IndexValues();
    private final IndexValues news = new IndexValues();
    private final ValueKey probe = new ValueKey(new byte[64], 0);
    private int size;

    /**
     * Adds a watcher of ({@code function}, {@code indexValue}). Dispatcher thread only.
     *
     * @param indexName  the index's name, for error messages.
     * @param function   the index's function; watchers are grouped by function identity.
     * @param indexValue the value watched.
     * @param watcher    the watcher.
     */
    public void add(final String indexName, final IndexFunction function, final byte[] indexValue, final W watcher)
    {
        FunctionRoutes<W> routes = find(function);
        if (routes == null)
        {
            routes = new FunctionRoutes<>(indexName, function);
            functions.add(routes);
        }
        routes.byValue.computeIfAbsent(ValueKey.copyOf(indexValue), k -> new ArrayList<>()).add(watcher);
        size++;
    }

    /**
     * Removes one registration. Dispatcher thread only.
     *
     * @param function   the function it was added with.
     * @param indexValue the value it was added with.
     * @param watcher    the watcher.
     * @return whether a registration was removed.
     */
    public boolean remove(final IndexFunction function, final byte[] indexValue, final W watcher)
    {
        final FunctionRoutes<W> routes = find(function);
        if (routes == null)
        {
            return false;
        }
        final ValueKey key = probe.wrap(indexValue, 0, indexValue.length);
        final ArrayList<W> watchers = routes.byValue.get(key);
        if (watchers == null || !watchers.remove(watcher))
        {
            return false;
        }
        if (watchers.isEmpty())
        {
            routes.byValue.remove(key);
            if (routes.byValue.isEmpty())
            {
                functions.remove(routes);
            }
        }
        size--;
        return true;
    }

    /**
     * @return true when no watcher is registered (the dispatcher then reads no values).
     */
    public boolean isEmpty()
    {
        return size == 0;
    }

    /**
     * @return the number of registrations.
     */
    public int size()
    {
        return size;
    }

    /**
     * Finds the watchers of an event: those of every index value its old value or its new value
     * has, each with the {@link IndexMatch} mode the event has for it. Dispatcher thread only;
     * allocates nothing in steady state.
     *
     * @param record  an event read in full (with values) from the window.
     * @param visitor receives each match, or each watcher of a function that threw.
     * @return the number of matches.
     */
    public int route(final EventRecord record, final IndexRouteVisitor<W> visitor)
    {
        int matches = 0;
        for (int f = 0, count = functions.size(); f < count; f++)
        {
            final FunctionRoutes<W> routes = functions.get(f);
            try
            {
                olds.collectPrevious(routes.indexName, routes.function, record);
                news.collectCurrent(routes.indexName, routes.function, record);
            }
            catch (final IndexFunctionException e)
            {
                routes.failAll(visitor, e);
                continue;
            }
            for (int i = 0, size = olds.size(); i < size; i++)
            {
                matches += visit(routes, olds, i, news.containsValueOf(olds, i) ? IndexMatch.AS_IS : IndexMatch.AS_DELETE, visitor);
            }
            for (int i = 0, size = news.size(); i < size; i++)
            {
                if (!olds.containsValueOf(news, i))
                {
                    matches += visit(routes, news, i, IndexMatch.AS_ADD, visitor);
                }
            }
        }
        return matches;
    }

    /**
     * How an event looks to one watcher of ({@code function}, {@code indexValue}), for replaying
     * history to a new watcher. Dispatcher thread only; allocates nothing in steady state.
     *
     * @param indexName  the index's name, for error messages.
     * @param function   the index's function.
     * @param indexValue the value watched.
     * @param record     an event read in full from the window.
     * @return an {@link IndexMatch} mode, NONE when the watcher does not see it.
     * @throws IndexFunctionException if the function throws.
     */
    public int match(final String indexName, final IndexFunction function, final byte[] indexValue, final EventRecord record)
    {
        final ValueKey wanted = probe.wrap(indexValue, 0, indexValue.length);
        final boolean oldMatches = olds.collectPrevious(indexName, function, record).contains(wanted.buffer(), 0, wanted.length);
        final boolean newMatches = news.collectCurrent(indexName, function, record).contains(wanted.buffer(), 0, wanted.length);
        return IndexMatch.of(oldMatches, newMatches);
    }

    private int visit(
        final FunctionRoutes<W> routes, final IndexValues values, final int i, final int mode, final IndexRouteVisitor<W> visitor)
    {
        final ArrayList<W> watchers = routes.byValue.get(probe.wrap(values.buffer(), values.offset(i), values.length(i)));
        if (watchers == null)
        {
            return 0;
        }
        for (int w = 0, size = watchers.size(); w < size; w++)
        {
            visitor.onMatch(watchers.get(w), mode);
        }
        return watchers.size();
    }

    private FunctionRoutes<W> find(final IndexFunction function)
    {
        for (int i = 0, count = functions.size(); i < count; i++)
        {
            if (functions.get(i).function == function)
            {
                return functions.get(i);
            }
        }
        return null;
    }

    /** The watchers of one index function, by index value. */
    private static final class FunctionRoutes<W>
    {
        final String indexName;
        final IndexFunction function;
        final HashMap<ValueKey, ArrayList<W>> byValue = new HashMap<>();

        FunctionRoutes(final String indexName, final IndexFunction function)
        {
            this.indexName = indexName;
            this.function = function;
        }

        void failAll(final IndexRouteVisitor<W> visitor, final IndexFunctionException failure)
        {
            for (final ArrayList<W> watchers : byValue.values())
            {
                for (int w = 0, size = watchers.size(); w < size; w++)
                {
                    visitor.onFunctionFailed(watchers.get(w), failure);
                }
            }
        }
    }

    /**
     * Index value bytes with content equality. Stored keys own an exact copy; one probe per
     * routes object is rewrapped for lookups, so lookups allocate nothing.
     */
    private static final class ValueKey
    {
        private final UnsafeBuffer view = new UnsafeBuffer(new byte[0]);
        private byte[] bytes;
        private int length;
        private int hash;

        ValueKey(final byte[] bytes, final int length)
        {
            this.bytes = bytes;
            rehash(length);
        }

        static ValueKey copyOf(final byte[] value)
        {
            return new ValueKey(value.clone(), value.length);
        }

        ValueKey wrap(final byte[] value, final int offset, final int valueLength)
        {
            ensureCapacity(valueLength);
            System.arraycopy(value, offset, bytes, 0, valueLength);
            return rehash(valueLength);
        }

        ValueKey wrap(final DirectBuffer buffer, final int offset, final int valueLength)
        {
            ensureCapacity(valueLength);
            buffer.getBytes(offset, bytes, 0, valueLength);
            return rehash(valueLength);
        }

        DirectBuffer buffer()
        {
            return view;
        }

        private void ensureCapacity(final int required)
        {
            if (required > bytes.length)
            {
                bytes = new byte[Math.max(required, bytes.length * 2)];
            }
        }

        private ValueKey rehash(final int valueLength)
        {
            length = valueLength;
            int h = 1;
            for (int i = 0; i < valueLength; i++)
            {
                h = 31 * h + bytes[i];
            }
            hash = h;
            view.wrap(bytes);
            return this;
        }

        @Override
        public boolean equals(final Object other)
        {
            if (!(other instanceof ValueKey))
            {
                return false;
            }
            final ValueKey that = (ValueKey)other;
            return hash == that.hash && Arrays.equals(bytes, 0, length, that.bytes, 0, that.length);
        }

        @Override
        public int hashCode()
        {
            return hash;
        }
    }
}
