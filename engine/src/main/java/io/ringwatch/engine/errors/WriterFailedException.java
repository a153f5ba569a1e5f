package io.ringwatch.engine.errors;

/**
 * The writer met an {@link Error} in the engine's own code or in the journal's sizing (a bug, a
 * class that would not load, no memory left) while applying a write. That write fails with this
 * exception and so does every later one, since the revision it was building may be partly applied;
 * reads and watches keep working on what was published. Reopen the engine (a persistent one recovers
 * what its log holds). {@link #getCause()} is the Error.
 */
public final class WriterFailedException extends RingWatchException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message what failed.
     * @param cause   the Error.
     */
    public WriterFailedException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
