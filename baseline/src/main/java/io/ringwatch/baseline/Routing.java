package io.ringwatch.baseline;

/**
 * How a {@link LockedWatchStore} finds the watchers of a put's key.
 */
public enum Routing
{
    /** Tests every watcher against every key: the naive router, linear in the watcher count. */
    LINEAR_SCAN,
    /**
     * One hash lookup per distinct prefix length and one for the exact key: fair to the baseline when
     * most watchers do not match, allocating a key wrapper per lookup.
     */
    HASHED
}
