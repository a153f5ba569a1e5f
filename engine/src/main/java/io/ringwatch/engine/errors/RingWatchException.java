package io.ringwatch.engine.errors;

/**
 * Base type of every error RingWatch reports to a caller. Unchecked, like the errors of
 * etcd's client: a caller that can act on one catches the specific subtype.
 */
public class RingWatchException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message what went wrong, for a person.
     */
    public RingWatchException(final String message)
    {
        super(message);
    }

    /**
     * @param message what went wrong, for a person.
     * @param cause   the underlying failure.
     */
    public RingWatchException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
