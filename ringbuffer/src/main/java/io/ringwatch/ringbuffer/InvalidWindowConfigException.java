package io.ringwatch.ringbuffer;

/**
 * Thrown by {@link WindowConfig.Builder#build()} when a setting is out of range.
 */
public final class InvalidWindowConfigException extends IllegalArgumentException
{
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception. Any thread; allocates it.
     *
     * @param message which setting is wrong and why.
     */
    public InvalidWindowConfigException(final String message)
    {
        super(message);
    }
}
