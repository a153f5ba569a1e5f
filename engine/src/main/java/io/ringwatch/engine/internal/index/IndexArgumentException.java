package io.ringwatch.engine.internal.index;

/**
 * Thrown when a caller passes the {@link OffHeapIndex} an argument it cannot accept: a null or
 * empty key, a range outside its buffer, an entry too large, a revision that is not positive.
 * The index is unchanged when it is thrown.
 */
public final class IndexArgumentException extends IllegalArgumentException
{
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception; allocates it and its message, off the hot path.
     *
     * @param message what was wrong with which argument.
     */
    public IndexArgumentException(final String message)
    {
        super(message);
    }
}
