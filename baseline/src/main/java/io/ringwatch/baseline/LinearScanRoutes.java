package io.ringwatch.baseline;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@link Routing#LINEAR_SCAN}: every put tests every watcher, as the naive router does. Under the
 * store's lock; a put allocates nothing here.
 */
final class LinearScanRoutes implements Routes
{
    private final List<Route> routes = new ArrayList<>();

    @Override
    public void add(final byte[] watched, final boolean prefix, final LockedWatcher watcher)
    {
        routes.add(new Route(watched, prefix, watcher));
    }

    @Override
    public void offer(final ChangeEvent event) throws InterruptedException
    {
        final byte[] key = event.key();
        // Backwards, so that removing a refusing watcher does not skip the next one.
        for (int i = routes.size() - 1; i >= 0; i--)
        {
            final Route route = routes.get(i);
            if (route.matches(key) && !route.watcher().offer(event))
            {
                routes.remove(i);
            }
        }
    }

    /** One watcher and what it watches. */
    private record Route(byte[] watched, boolean prefix, LockedWatcher watcher)
    {
        boolean matches(final byte[] key)
        {
            if (prefix)
            {
                return key.length >= watched.length && Arrays.equals(watched, 0, watched.length, key, 0, watched.length);
            }
            return Arrays.equals(watched, key);
        }
    }
}
