package io.ringwatch.engine.internal.secondary;

import io.ringwatch.engine.errors.IndexFunctionException;

/**
 * Receives the watchers {@link IndexRoutes#route} finds for one event. Called on the routing
 * (dispatcher) thread; must not change the routes.
 *
 * @param <W> the watcher type.
 */
public interface IndexRouteVisitor<W>
{
    /**
     * @param watcher a watcher whose index value the event's old or new value has.
     * @param mode    how the event looks to it: an {@link IndexMatch} constant other than NONE.
     */
    void onMatch(W watcher, int mode);

    /**
     * @param watcher a watcher of an index whose function threw on the event's values.
     * @param failure what the function threw, wrapped.
     */
    void onFunctionFailed(W watcher, IndexFunctionException failure);
}
