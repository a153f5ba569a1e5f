package io.ringwatch.engine.errors;

/**
 * The engine is closed (or closing) and takes no more writes, reads or watches. A write that
 * fails with this was not applied.
 */
public final class EngineClosedException extends RingWatchException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message what was refused.
     */
    public EngineClosedException(final String message)
    {
        super(message);
    }
}
