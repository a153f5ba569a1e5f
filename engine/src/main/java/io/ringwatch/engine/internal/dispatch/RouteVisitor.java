package io.ringwatch.engine.internal.dispatch;

/**
 * Receives the watchers that {@link WatchRoutes#route} matched for one event key.
 * <p>
 * Called on the thread that calls {@code route} (the owning dispatcher thread), once per matching
 * registration. Implementations are meant to be created once and reused, so routing allocates nothing.
 *
 * @param <W> the watcher type.
 */
@FunctionalInterface
public interface RouteVisitor<W>
{
    /**
     * Called once for each registration whose key, range or "every key" watch contains the routed key.
     * Must not add or remove routes on the {@link WatchRoutes} that is calling it.
     *
     * @param watcher the watcher of the matching registration.
     */
    void onMatch(W watcher);
}
