package io.ringwatch.persistence;

/**
 * The data directory cannot be used: it is not a directory, cannot be written, or holds files the log
 * did not write. The open changed nothing.
 */
public class LogDirectoryException extends RevisionLogException
{
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what went wrong, with the file or revision concerned.
     */
    public LogDirectoryException(final String message)
    {
        super(message);
    }

    /**
     * Creates the exception with its cause.
     *
     * @param message what went wrong, with the file or revision concerned.
     * @param cause   the underlying failure.
     */
    public LogDirectoryException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
