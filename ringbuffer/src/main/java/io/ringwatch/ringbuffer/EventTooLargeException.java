package io.ringwatch.ringbuffer;

/**
 * Thrown by {@link WatchWindow#append} when key, value and previous value together exceed
 * {@link WindowConfig#maxEventBytes()}. The window is left unchanged.
 */
public final class EventTooLargeException extends InvalidEventException
{
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception. Any thread; allocates it.
     *
     * @param eventBytes    key + value + previous value length of the rejected event.
     * @param maxEventBytes the configured limit.
     */
    public EventTooLargeException(final long eventBytes, final int maxEventBytes)
    {
        super("event of " + eventBytes + " bytes exceeds maxEventBytes " + maxEventBytes);
    }
}
