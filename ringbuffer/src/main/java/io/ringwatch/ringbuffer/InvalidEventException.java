package io.ringwatch.ringbuffer;

/**
 * Thrown by {@link WatchWindow#append} or {@link ChangeRecord#add} when an event is malformed
 * (revision out of order, bad offsets or lengths, missing buffers). The window or record is left
 * unchanged.
 */
public class InvalidEventException extends IllegalArgumentException
{
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception. Any thread; allocates it.
     *
     * @param message what was wrong with the event.
     */
    public InvalidEventException(final String message)
    {
        super(message);
    }
}
