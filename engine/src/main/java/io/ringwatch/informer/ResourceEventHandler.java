package io.ringwatch.informer;

/**
 * Receives an informer's notifications about its cache (client-go's ResourceEventHandler). Each
 * registered handler is called on its own thread, never concurrently with itself, so it needs no
 * locking of its own; a slow or throwing handler delays no other handler and never the informer.
 *
 * <p>Per key, the notifications a handler receives, applied in order to an empty map, always
 * rebuild the cache: an add for a key it does not hold, an update or delete only for a key it
 * holds, with {@code oldObj} the object it was last given for that key. When the handler falls
 * behind its bounded buffer, pending changes are coalesced per key (it sees the latest state,
 * not every intermediate one). The objects are shared with the cache and other handlers: read
 * them, never modify them.
 */
public interface ResourceEventHandler
{
    /**
     * A key entered the cache (or the handler is being told about an existing key on
     * registration).
     *
     * @param obj the object now cached.
     */
    void onAdd(CachedObject obj);

    /**
     * A cached key changed, or a resync re-delivers it unchanged ({@code oldObj == newObj}).
     *
     * @param oldObj the object the handler was last given for this key.
     * @param newObj the object now cached.
     */
    void onUpdate(CachedObject oldObj, CachedObject newObj);

    /**
     * A key left the cache. {@code obj} is the last object the handler was given for it. When
     * the delete was found by a relist rather than seen on the watch (client-go's
     * DeletedFinalStateUnknown), it is still a plain call with that last known object, whose
     * revisions predate the deletion.
     *
     * @param obj the last known object.
     */
    void onDelete(CachedObject obj);
}
