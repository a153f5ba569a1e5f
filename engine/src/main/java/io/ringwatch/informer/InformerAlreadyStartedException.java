package io.ringwatch.informer;

import io.ringwatch.engine.errors.RingWatchException;

/**
 * {@code start()} was called on an informer that is already running. Nothing was changed.
 * Thrown on the caller's thread.
 */
public final class InformerAlreadyStartedException extends RingWatchException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message what was refused.
     */
    public InformerAlreadyStartedException(final String message)
    {
        super(message);
    }
}
