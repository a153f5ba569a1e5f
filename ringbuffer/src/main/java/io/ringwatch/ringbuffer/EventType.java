package io.ringwatch.ringbuffer;

/**
 * The kind of change an event records, with a stable one-byte code for storage and the wire
 * (the same numbering as etcd's {@code mvccpb.Event.EventType}). Immutable; any thread.
 */
public enum EventType
{
    /** A key was created or its value replaced. */
    PUT((byte)0),

    /** A key was deleted. */
    DELETE((byte)1);

    private final byte code;

    EventType(final byte code)
    {
        this.code = code;
    }

    /**
     * The stable code of this type. Any thread; no allocation.
     *
     * @return the byte stored for this type.
     */
    public byte code()
    {
        return code;
    }

    /**
     * Decodes a stable code. Any thread; no allocation.
     *
     * @param code a byte produced by {@link #code()}.
     * @return the matching type.
     * @throws IllegalArgumentException if no type has this code.
     */
    public static EventType fromCode(final byte code)
    {
        final EventType type = fromCodeOrNull(code);
        if (null == type)
        {
            throw new IllegalArgumentException("unknown event type code: " + code);
        }
        return type;
    }

    /**
     * Decodes a code without throwing, for readers that may have copied a torn slot.
     */
    static EventType fromCodeOrNull(final int code)
    {
        switch (code)
        {
            case 0:
                return PUT;
            case 1:
                return DELETE;
            default:
                return null;
        }
    }
}
