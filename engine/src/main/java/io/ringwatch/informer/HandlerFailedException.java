package io.ringwatch.informer;

import io.ringwatch.engine.errors.RingWatchException;

/**
 * A handler threw while being notified. Reported to the {@link InformerErrorHandler}, never
 * thrown at a caller; the handler keeps receiving later notifications.
 */
public final class HandlerFailedException extends RingWatchException
{
    private static final long serialVersionUID = 1L;

    private final transient ObjectKey key;

    /**
     * @param handlerName the registration's name.
     * @param callback    the method that threw ({@code onAdd}, {@code onUpdate}, {@code onDelete}).
     * @param key         the key it was told about.
     * @param cause       what it threw.
     */
    public HandlerFailedException(final String handlerName, final String callback, final ObjectKey key, final Throwable cause)
    {
        super(handlerName + "." + callback + "(" + key + ") threw " + cause, cause);
        this.key = key;
    }

    /**
     * @return the key the handler was being told about.
     */
    public ObjectKey key()
    {
        return key;
    }
}
