package io.ringwatch.engine.errors;


/**
 * An index function threw or produced an unusable index value. Raised by {@code addIndex}
 * (the index is not added), by a write whose new value the function rejects (the write changes
 * nothing), and by reads of an index the writer had to disable because its function stopped
 * accepting a value it had accepted before (a non-deterministic function).
 */
public class IndexFunctionException extends RingWatchException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message what failed, for a person.
     */
    public IndexFunctionException(final String message)
    {
        super(message);
    }

    /**
     * @param message what failed, for a person.
     * @param cause   what the function threw.
     */
    public IndexFunctionException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
