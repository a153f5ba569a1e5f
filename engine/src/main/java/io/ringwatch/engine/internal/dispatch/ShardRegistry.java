package io.ringwatch.engine.internal.dispatch;

import io.ringwatch.engine.internal.secondary.IndexRouteVisitor;
import io.ringwatch.engine.internal.secondary.IndexRoutes;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.ringbuffer.EventRecord;

import java.util.ArrayList;

/**
 * The watchers of one dispatcher shard: every registered watcher, those that asked for periodic
 * progress, and the routes (by key, range, prefix or index value) of those the window serves.
 * Registered and routed are separate: a watcher that reads by its own cursor stays registered
 * (it still gets progress and ends with the shard) but is off the routes.
 *
 * <p>Threads: the owning dispatcher thread only. Allocation: registering and routing a watcher
 * allocate route entries; removing and routing events allocate nothing.
 */
final class ShardRegistry
{
    private final WatchRoutes<WatcherState> routes = new WatchRoutes<>();
    private final IndexRoutes<WatcherState> indexRoutes = new IndexRoutes<>();
    private final ArrayList<WatcherState> registered = new ArrayList<>();
    private final ArrayList<WatcherState> progressWatchers = new ArrayList<>();

    /**
     * @return the number of registered watchers.
     */
    int size()
    {
        return registered.size();
    }

    /**
     * @param index a position below {@link #size()}.
     * @return the registered watcher there.
     */
    WatcherState get(final int index)
    {
        return registered.get(index);
    }

    /**
     * @return the number of registered watchers that asked for periodic progress.
     */
    int progressWatcherCount()
    {
        return progressWatchers.size();
    }

    /**
     * @param index a position below {@link #progressWatcherCount()}.
     * @return the progress watcher there.
     */
    WatcherState progressWatcher(final int index)
    {
        return progressWatchers.get(index);
    }

    /**
     * @param watcher a watcher.
     * @return true while it is registered here.
     */
    boolean isRegistered(final WatcherState watcher)
    {
        return watcher.registryIndex >= 0;
    }

    /**
     * Registers a watcher, not yet routed.
     *
     * @param watcher a watcher not registered yet.
     */
    void register(final WatcherState watcher)
    {
        watcher.registryIndex = registered.size();
        registered.add(watcher);
        if (watcher.wantsPeriodicProgress())
        {
            watcher.shardFields().progressIndex = progressWatchers.size();
            progressWatchers.add(watcher);
        }
    }

    /**
     * Takes a watcher off the routes and out of the registry; nothing if it is not registered.
     *
     * @param watcher the watcher.
     */
    void deregister(final WatcherState watcher)
    {
        final int index = watcher.registryIndex;
        if (index < 0)
        {
            return;
        }
        unroute(watcher);
        swapRemove(registered, index).registryIndex = index;
        watcher.registryIndex = -1;
        final ShardFields fields = watcher.shardFieldsOrNull();
        if (fields != null && fields.progressIndex >= 0)
        {
            swapRemove(progressWatchers, fields.progressIndex).shardFieldsOrNull().progressIndex = fields.progressIndex;
            fields.progressIndex = -1;
        }
    }

    /**
     * Adds the watcher's routes: events it matches are offered to it from now on.
     *
     * @param watcher a registered watcher off the routes.
     */
    void route(final WatcherState watcher)
    {
        final IndexWatch index = watcher.index();
        final byte[] key = watcher.exactKey();
        if (index != null)
        {
            indexRoutes.add(index.name, index.function, index.value, watcher);
        }
        else if (key != null)
        {
            // The watcher's key is immutable: the routes keep it rather than a copy.
            routes.addImmutableKey(key, watcher);
        }
        else
        {
            final KeyRange range = watcher.keyRange();
            if (range.fromKey().length == 0 && range.toKey() == null)
            {
                routes.addAll(watcher);
            }
            else
            {
                routes.addRange(range.fromKey(), range.toKey(), watcher);
            }
        }
        watcher.routed(true);
    }

    /**
     * Removes the watcher's routes, if it has them.
     *
     * @param watcher the watcher.
     */
    void unroute(final WatcherState watcher)
    {
        if (!watcher.isRouted())
        {
            return;
        }
        final IndexWatch index = watcher.index();
        final byte[] key = watcher.exactKey();
        if (index != null)
        {
            indexRoutes.remove(index.function, index.value, watcher);
        }
        else if (key != null)
        {
            routes.removeKey(key, watcher);
        }
        else
        {
            final KeyRange range = watcher.keyRange();
            if (range.fromKey().length == 0 && range.toKey() == null)
            {
                routes.removeAll(watcher);
            }
            else
            {
                routes.removeRange(range.fromKey(), range.toKey(), watcher);
            }
        }
        watcher.routed(false);
    }

    /**
     * @return true when some routed watcher watches by index, so events must be read with values.
     */
    boolean hasIndexRoutes()
    {
        return !indexRoutes.isEmpty();
    }

    /**
     * @return the index routes, to evaluate one watcher's index function on a replayed event.
     */
    IndexRoutes<WatcherState> indexRoutes()
    {
        return indexRoutes;
    }

    /**
     * Offers the event to every routed watcher it matches.
     *
     * @param record       the event, read with values when {@link #hasIndexRoutes()}.
     * @param byKey        receives the key, range and prefix matches.
     * @param byIndexValue receives the index matches.
     */
    void routeEvent(
        final EventRecord record,
        final RouteVisitor<WatcherState> byKey,
        final IndexRouteVisitor<WatcherState> byIndexValue)
    {
        routes.route(record.key(), 0, record.keyLength(), byKey);
        if (!indexRoutes.isEmpty())
        {
            indexRoutes.route(record, byIndexValue);
        }
    }

    private static WatcherState swapRemove(final ArrayList<WatcherState> list, final int index)
    {
        final int last = list.size() - 1;
        final WatcherState moved = list.get(last);
        list.set(index, moved);
        list.remove(last);
        return moved;
    }
}
