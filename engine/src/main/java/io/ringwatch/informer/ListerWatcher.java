package io.ringwatch.informer;

import io.ringwatch.engine.kv.RangeResult;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.WatchEvent;

/**
 * Where an informer gets its objects (client-go's ListerWatcher): a consistent list at a
 * revision, then a watch that continues it from the next revision with no gap and no duplicate.
 * {@link RangeListerWatcher} serves a key range; other selections (objects by an index value)
 * plug in here.
 *
 * <p>Called only by the informer's own thread. A watch ends with a
 * {@link io.ringwatch.engine.watch.WatchCancellation}; for every reason but the client's cancel
 * and the engine closing, the informer lists again and carries on.
 */
public interface ListerWatcher
{
    /**
     * Lists every selected object, consistent at one revision. Allocates the result.
     *
     * @return the objects and the revision they are consistent at, not cut short by a limit.
     */
    RangeResult list();

    /**
     * Watches the selection from {@code fromRevision} on. The informer's thread polls it.
     *
     * @param fromRevision the first revision to deliver (a list's revision + 1).
     * @return the watcher; it may already be cancelled (for example, compacted).
     */
    PullWatcher watch(long fromRevision);

    /**
     * Whether the object a PUT leaves behind is selected. A watch may deliver a PUT for an
     * object that just left the selection (a watch by index value matches the old or the new
     * value); the informer treats such a PUT as a delete. Called on the informer's thread with a
     * flyweight valid only during the call.
     *
     * @param put a PUT event.
     * @return true when the new object belongs in the cache.
     */
    default boolean selects(final WatchEvent put)
    {
        return true;
    }

    /**
     * @return the name of the engine the objects come from: the informer's threads are named
     * after it ({@code <engine name>-informer}).
     */
    default String engineName()
    {
        return io.ringwatch.engine.config.RingWatchConfig.DEFAULT_NAME;
    }
}
