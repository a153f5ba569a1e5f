package io.ringwatch.informer;

import java.util.Collection;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The informer's local cache: key to current object. The informer's thread is the only writer;
 * any thread may read (a concurrent hash map: lock-free gets, weakly consistent iteration).
 */
final class CacheStore
{
    private final ConcurrentHashMap<ObjectKey, CachedObject> objects = new ConcurrentHashMap<>();

    CachedObject get(final ObjectKey key)
    {
        return objects.get(key);
    }

    /**
     * @return the object it replaced, or null.
     */
    CachedObject put(final CachedObject obj)
    {
        return objects.put(obj.key(), obj);
    }

    /**
     * @return the object removed, or null.
     */
    CachedObject remove(final ObjectKey key)
    {
        return objects.remove(key);
    }

    Collection<CachedObject> objects()
    {
        return objects.values();
    }

    Set<ObjectKey> keys()
    {
        return objects.keySet();
    }

    int size()
    {
        return objects.size();
    }
}
