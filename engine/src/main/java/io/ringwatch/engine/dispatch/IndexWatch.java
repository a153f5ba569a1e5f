package io.ringwatch.engine.dispatch;

import io.ringwatch.engine.secondary.IndexFunction;

/**
 * What a watch by secondary index adds to its watcher: the index's function, resolved when the watch
 * is created, and the index value watched. A watcher holds one reference to it, null for the watches
 * by key that are nearly all of them, so those pay 4 bytes for it instead of 8.
 *
 * <p>Threads: immutable; published to the dispatcher by the watcher's registration. Allocation: none.
 */
final class IndexWatch
{
    final IndexFunction function;
    final byte[] value;

    /**
     * @param function the index's function.
     * @param value    the index value watched; kept, so the caller must not change it.
     */
    IndexWatch(final IndexFunction function, final byte[] value)
    {
        this.function = function;
        this.value = value;
    }
}
