package io.ringwatch.engine.internal.dispatch;

import io.ringwatch.engine.secondary.IndexFunction;

/**
 * What a watch by secondary index watches: the index's name and function, resolved when the watch
 * is created, and the index value watched. A watcher by index holds it where a watcher by key holds
 * its key or range, so the watches by key that are nearly all of them pay nothing for it.
 *
 * <p>Threads: immutable; published to the dispatcher by the watcher's registration. Allocation: none.
 */
final class IndexWatch
{
    final String name;
    final IndexFunction function;
    final byte[] value;

    /**
     * @param name     the index's name.
     * @param function the index's function.
     * @param value    the index value watched; kept, so the caller must not change it.
     */
    IndexWatch(final String name, final IndexFunction function, final byte[] value)
    {
        this.name = name;
        this.function = function;
        this.value = value;
    }
}
