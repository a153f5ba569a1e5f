package io.ringwatch.persistence;

/**
 * An append, flush or metadata write failed on the storage (for example a full disk). The revision that
 * was being written is not in the log; the caller must not acknowledge it.
 */
public class LogWriteException extends RevisionLogException
{
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what went wrong, with the file or revision concerned.
     */
    public LogWriteException(final String message)
    {
        super(message);
    }

    /**
     * Creates the exception with its cause.
     *
     * @param message what went wrong, with the file or revision concerned.
     * @param cause   the underlying failure.
     */
    public LogWriteException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
