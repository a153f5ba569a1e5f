package io.ringwatch.persistence;

/**
 * Base of every error the revision log reports: a caller can catch this one type to handle any log
 * failure. Thrown on the calling thread; allocates only when thrown.
 */
public class RevisionLogException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what went wrong, with the file or revision concerned.
     */
    public RevisionLogException(final String message)
    {
        super(message);
    }

    /**
     * Creates the exception with its cause.
     *
     * @param message what went wrong, with the file or revision concerned.
     * @param cause   the underlying failure.
     */
    public RevisionLogException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
