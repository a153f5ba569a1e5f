package io.ringwatch.informer;

import io.ringwatch.engine.errors.RingWatchException;

/**
 * The informer has stopped (by {@code stop()}, or because its engine closed) and refuses the
 * call. Nothing was changed. Thrown on the caller's thread.
 */
public final class InformerStoppedException extends RingWatchException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message what was refused.
     */
    public InformerStoppedException(final String message)
    {
        super(message);
    }

    /**
     * @param message why the informer stopped.
     * @param cause   the failure that stopped it.
     */
    public InformerStoppedException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
