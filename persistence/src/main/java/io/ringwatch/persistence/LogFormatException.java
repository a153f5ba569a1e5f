package io.ringwatch.persistence;

/**
 * The data directory was written by a newer format version than this code reads. Upgrade the code; the
 * directory is left untouched.
 */
public class LogFormatException extends RevisionLogException
{
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what went wrong, with the file or revision concerned.
     */
    public LogFormatException(final String message)
    {
        super(message);
    }

    /**
     * Creates the exception with its cause.
     *
     * @param message what went wrong, with the file or revision concerned.
     * @param cause   the underlying failure.
     */
    public LogFormatException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
