package io.ringwatch.informer;

/**
 * A key whose changes a handler has not been told about yet, because its buffer was full or a
 * resync or registration asked for the key: what the handler last saw for it (null: nothing)
 * and whether it must be re-delivered even if unchanged. Owned by the informer's thread.
 */
final class PendingKey
{
    final CachedObject lastSeen;
    boolean resync;

    PendingKey(final CachedObject lastSeen, final boolean resync)
    {
        this.lastSeen = lastSeen;
        this.resync = resync;
    }
}
