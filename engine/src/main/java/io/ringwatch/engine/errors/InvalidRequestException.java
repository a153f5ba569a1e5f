package io.ringwatch.engine.errors;

/**
 * A request was refused before it reached the writer because its arguments are invalid: a null
 * or empty key, a key or value over the configured limit, a range end not after its start, a
 * negative revision. Nothing was changed. Thrown on the caller's thread.
 */
public class InvalidRequestException extends RingWatchException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message which argument is wrong and why.
     */
    public InvalidRequestException(final String message)
    {
        super(message);
    }
}
