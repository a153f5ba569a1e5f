package io.ringwatch.informer;

import io.ringwatch.engine.errors.RingWatchException;

/**
 * A cached object's bytes changed after the informer cached it: some handler wrote into a value
 * it was given (client-go's CacheMutationDetector finding). Reported to the
 * {@link InformerErrorHandler} once per object, never thrown at a caller.
 */
public final class CacheMutationException extends RingWatchException
{
    private static final long serialVersionUID = 1L;

    private final transient ObjectKey key;
    private final long modRevision;

    /**
     * @param key         the mutated object's key.
     * @param modRevision the mutated object's mod revision.
     */
    public CacheMutationException(final ObjectKey key, final long modRevision)
    {
        super("cached object " + key + " at mod revision " + modRevision + " was modified after it was cached");
        this.key = key;
        this.modRevision = modRevision;
    }

    /**
     * @return the mutated object's key.
     */
    public ObjectKey key()
    {
        return key;
    }

    /**
     * @return the mutated object's mod revision.
     */
    public long modRevision()
    {
        return modRevision;
    }
}
