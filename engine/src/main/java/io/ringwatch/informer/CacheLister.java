package io.ringwatch.informer;

import io.ringwatch.engine.errors.InvalidRequestException;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads an informer's local cache (client-go's Lister / Store reads). Any thread, without locks,
 * concurrently with the informer applying changes: each object returned is whole and immutable;
 * {@link #list()} and {@link #keys()} are weakly consistent (each element was cached at some
 * point during the call, changes made during the call may or may not show). For a snapshot
 * exactly at one revision, read the engine. Lookups allocate nothing but the key of a
 * {@code byte[]} or {@code String} lookup; lists allocate the list.
 */
public final class CacheLister
{
    private final CacheStore store;

    CacheLister(final CacheStore store)
    {
        this.store = store;
    }

    /**
     * @param key the key.
     * @return the cached object, if any.
     * @throws InvalidRequestException if the key is null.
     */
    public Optional<CachedObject> get(final ObjectKey key)
    {
        if (key == null)
        {
            throw new InvalidRequestException("key must not be null");
        }
        return Optional.ofNullable(store.get(key));
    }

    /**
     * @param key the key bytes.
     * @return the cached object, if any.
     * @throws InvalidRequestException if the key is null or empty.
     */
    public Optional<CachedObject> get(final byte[] key)
    {
        return get(ObjectKey.of(key));
    }

    /**
     * @param key the key, UTF-8 encoded.
     * @return the cached object, if any.
     * @throws InvalidRequestException if the key is null or empty.
     */
    public Optional<CachedObject> get(final String key)
    {
        return get(ObjectKey.of(key));
    }

    /**
     * @return every cached object, in no particular order.
     */
    public List<CachedObject> list()
    {
        return new ArrayList<>(store.objects());
    }

    /**
     * @return every cached key, in no particular order.
     */
    public List<ObjectKey> keys()
    {
        return new ArrayList<>(store.keys());
    }

    /**
     * @return the number of cached objects.
     */
    public int size()
    {
        return store.size();
    }
}
