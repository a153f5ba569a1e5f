package io.ringwatch.persistence;

/**
 * Stored bytes failed a check: a bad CRC, a broken layout or a revision out of sequence. Never retry: the
 * data on disk needs an operator (the replay tool's verify reports the first problem).
 */
public class LogCorruptedException extends RevisionLogException
{
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what went wrong, with the file or revision concerned.
     */
    public LogCorruptedException(final String message)
    {
        super(message);
    }

    /**
     * Creates the exception with its cause.
     *
     * @param message what went wrong, with the file or revision concerned.
     * @param cause   the underlying failure.
     */
    public LogCorruptedException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
