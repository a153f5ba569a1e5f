package io.ringwatch.engine.watch;

import io.ringwatch.engine.kv.KeyValue;

import java.util.Objects;

/**
 * An immutable copy of one change, as etcd's mvccpb.Event: the type, the key-value after the
 * change (for a DELETE: the key with an empty value, modRevision = the delete's revision,
 * createRevision and version 0), and the previous key-value when it was asked for and existed.
 * Thread-safe.
 */
public final class Event
{
    private final EventType type;
    private final KeyValue kv;
    private final KeyValue prevKv;

    /**
     * @param type   PUT or DELETE.
     * @param kv     the key-value after the change.
     * @param prevKv the key-value before it, or null.
     */
    public Event(final EventType type, final KeyValue kv, final KeyValue prevKv)
    {
        this.type = Objects.requireNonNull(type, "type");
        this.kv = Objects.requireNonNull(kv, "kv");
        this.prevKv = prevKv;
    }

    /**
     * @return PUT or DELETE.
     */
    public EventType type()
    {
        return type;
    }

    /**
     * @return the key-value after the change.
     */
    public KeyValue kv()
    {
        return kv;
    }

    /**
     * @return the key-value before the change, or null when not asked for or the key was new.
     */
    public KeyValue prevKv()
    {
        return prevKv;
    }

    /**
     * @return the revision of the change.
     */
    public long revision()
    {
        return kv.modRevision();
    }

    @Override
    public boolean equals(final Object o)
    {
        if (!(o instanceof Event))
        {
            return false;
        }
        final Event that = (Event)o;
        return type == that.type && kv.equals(that.kv) && Objects.equals(prevKv, that.prevKv);
    }

    @Override
    public int hashCode()
    {
        return type.hashCode() * 31 + kv.hashCode();
    }

    @Override
    public String toString()
    {
        return type + " " + kv + (prevKv != null ? " prev[" + prevKv + "]" : "");
    }
}
