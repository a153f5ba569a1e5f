package io.ringwatch.engine.errors;

/**
 * The revision log could not record or force a revision (a full disk, an I/O error): the write
 * that met it, and every later write, fail with this exception, because an engine whose memory
 * ran ahead of its log must not acknowledge anything more. Reads and watches keep working;
 * restarting recovers the state the log holds. {@link #getCause()} is the log's error.
 */
public final class JournalFailedException extends RingWatchException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message what failed.
     * @param cause   the log's error.
     */
    public JournalFailedException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
