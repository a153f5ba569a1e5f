package io.ringwatch.ringbuffer;

import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;

/**
 * A mutable holder that {@link WatchWindow#read(long, EventRecord)} copies one event into.
 * Meant to be reused: its three buffers only grow, so reading allocates nothing once they have
 * reached the largest event seen (at most {@link WindowConfig#maxEventBytes()} in all).
 * <p>
 * Buffers are valid from offset 0 for their length and stay valid until the next read into
 * this record. Semantics follow etcd: for {@link EventType#DELETE} the value is empty and
 * {@code createRevision} and {@code version} are 0; the previous key-value, when present,
 * carries the state before the change.
 * <p>
 * Threading: owned by one reader thread at a time; not thread-safe. Allocation: buffer growth
 * only.
 */
public final class EventRecord
{
    private static final int INITIAL_BUFFER_BYTES = 128;

    private final ExpandableArrayBuffer key;
    private final ExpandableArrayBuffer value;
    private final ExpandableArrayBuffer prevValue;
    private long sequence = -1;
    private long revision;
    private EventType type = EventType.PUT;
    private int keyLength;
    private int valueLength;
    private long createRevision;
    private long version;
    private int prevValueLength;
    private long prevCreateRevision;
    private long prevModRevision;
    private long prevVersion;
    private long lease;
    private long prevLease;
    private long timestampNanos;

    /**
     * Creates an empty record with small buffers. Any thread; allocates the record and buffers.
     */
    public EventRecord()
    {
        this(INITIAL_BUFFER_BYTES);
    }

    /**
     * Creates an empty record whose buffers start at {@code initialBufferBytes} each, so that
     * reads of events up to that size never allocate. Any thread; allocates the buffers.
     *
     * @param initialBufferBytes initial capacity of each of the key, value and previous value
     *                           buffers.
     * @throws IllegalArgumentException if {@code initialBufferBytes} is negative.
     */
    public EventRecord(final int initialBufferBytes)
    {
        if (initialBufferBytes < 0)
        {
            throw new IllegalArgumentException("initialBufferBytes must not be negative: " + initialBufferBytes);
        }
        key = new ExpandableArrayBuffer(initialBufferBytes);
        value = new ExpandableArrayBuffer(initialBufferBytes);
        prevValue = new ExpandableArrayBuffer(initialBufferBytes);
    }

    /**
     * Fills this record with an event that does not come from a window, such as one read back from
     * a revision log, so that consumers handle both alike. Follows the window's conventions: for
     * {@link EventType#DELETE} the value is empty and {@code createRevision} and {@code version}
     * are 0; with {@code prevModRevision == 0} there is no previous key-value. The sequence becomes
     * -1. Owner thread; allocates only when a buffer must grow.
     *
     * @param revision           the event's revision, positive.
     * @param type               PUT or DELETE.
     * @param key                buffer holding the key.
     * @param keyOffset          offset of the key in {@code key}.
     * @param keyLength          length of the key, positive.
     * @param value              buffer holding the value; ignored for DELETE.
     * @param valueOffset        offset of the value in {@code value}.
     * @param valueLength        length of the value.
     * @param createRevision     the key's createRevision after a PUT.
     * @param version            the key's version after a PUT.
     * @param prevValue          buffer holding the previous value; ignored without a previous key-value.
     * @param prevValueOffset    offset of the previous value in {@code prevValue}.
     * @param prevValueLength    length of the previous value.
     * @param prevCreateRevision the previous key-value's createRevision.
     * @param prevModRevision    the previous key-value's modRevision, 0 if there was none.
     * @param prevVersion        the previous key-value's version.
     * @param timestampNanos     when the event was applied.
     * @throws InvalidEventException if the revision or the key length is not positive, or a type is missing.
     */
    public void set(
        final long revision,
        final EventType type,
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength,
        final long createRevision,
        final long version,
        final DirectBuffer prevValue, final int prevValueOffset, final int prevValueLength,
        final long prevCreateRevision,
        final long prevModRevision,
        final long prevVersion,
        final long timestampNanos)
    {
        if (revision <= 0 || keyLength <= 0 || type == null)
        {
            throw new InvalidEventException(
                "an event needs a positive revision, a type and a key: revision " + revision + ", type " + type +
                ", key length " + keyLength);
        }
        final boolean put = type == EventType.PUT;
        final boolean hasPrev = prevModRevision != 0;
        this.sequence = -1;
        this.revision = revision;
        this.type = type;
        this.createRevision = put ? createRevision : 0;
        this.version = put ? version : 0;
        this.prevCreateRevision = hasPrev ? prevCreateRevision : 0;
        this.prevModRevision = hasPrev ? prevModRevision : 0;
        this.prevVersion = hasPrev ? prevVersion : 0;
        this.lease = 0;
        this.prevLease = 0;
        this.timestampNanos = timestampNanos;
        this.keyLength = keyLength;
        this.valueLength = put ? valueLength : 0;
        this.prevValueLength = hasPrev ? prevValueLength : 0;
        this.key.putBytes(0, key, keyOffset, keyLength);
        if (put)
        {
            this.value.putBytes(0, value, valueOffset, valueLength);
        }
        if (hasPrev)
        {
            this.prevValue.putBytes(0, prevValue, prevValueOffset, prevValueLength);
        }
    }

    /**
     * Copies one event's fields and bytes in. Called by the window's reader path only; the
     * caller validates afterwards, since the source may be overwritten while it copies.
     */
    void copyFrom(
        final long sequence,
        final long revision,
        final EventType type,
        final long createRevision,
        final long version,
        final long prevCreateRevision,
        final long prevModRevision,
        final long prevVersion,
        final long timestampNanos,
        final DirectBuffer data,
        final int dataOffset,
        final int keyLength,
        final int valueLength,
        final int prevValueLength,
        final boolean withValues)
    {
        this.sequence = sequence;
        this.revision = revision;
        this.type = type;
        this.createRevision = createRevision;
        this.version = version;
        this.prevCreateRevision = prevCreateRevision;
        this.prevModRevision = prevModRevision;
        this.prevVersion = prevVersion;
        this.timestampNanos = timestampNanos;
        this.keyLength = keyLength;
        this.valueLength = valueLength;
        this.prevValueLength = prevValueLength;
        key.putBytes(0, data, dataOffset, keyLength);
        if (withValues)
        {
            value.putBytes(0, data, dataOffset + keyLength, valueLength);
            prevValue.putBytes(0, data, dataOffset + keyLength + valueLength, prevValueLength);
        }
    }

    /**
     * The event's position in the window, dense from 0. Reader thread; no allocation.
     *
     * @return the sequence, or -1 if nothing has been read yet.
     */
    public long sequence()
    {
        return sequence;
    }

    /**
     * The revision of the change; several events of one transaction share it. Reader thread;
     * no allocation.
     *
     * @return the revision.
     */
    public long revision()
    {
        return revision;
    }

    /**
     * Whether the key was put or deleted. Reader thread; no allocation.
     *
     * @return the event type.
     */
    public EventType type()
    {
        return type;
    }

    /**
     * The key bytes, valid from 0 for {@link #keyLength()}. Reader thread; no allocation.
     *
     * @return a buffer reused by the next read.
     */
    public DirectBuffer key()
    {
        return key;
    }

    /**
     * Length of the key. Reader thread; no allocation.
     *
     * @return bytes.
     */
    public int keyLength()
    {
        return keyLength;
    }

    /**
     * The new value bytes, valid from 0 for {@link #valueLength()}. Reader thread; no allocation.
     *
     * @return a buffer reused by the next read.
     */
    public DirectBuffer value()
    {
        return value;
    }

    /**
     * Length of the new value; 0 for DELETE. Reader thread; no allocation.
     *
     * @return bytes.
     */
    public int valueLength()
    {
        return valueLength;
    }

    /**
     * Revision at which the key was created; 0 for DELETE, as in etcd. Reader thread; no
     * allocation.
     *
     * @return the create revision.
     */
    public long createRevision()
    {
        return createRevision;
    }

    /**
     * Revision of this modification; always equal to {@link #revision()}. Reader thread; no
     * allocation.
     *
     * @return the mod revision.
     */
    public long modRevision()
    {
        return revision;
    }

    /**
     * Number of puts since the key was created; 0 for DELETE, as in etcd. Reader thread; no
     * allocation.
     *
     * @return the version.
     */
    public long version()
    {
        return version;
    }

    /**
     * Whether the event carries the key-value as it was before the change. Reader thread; no
     * allocation.
     *
     * @return true if a previous key-value exists.
     */
    public boolean hasPrev()
    {
        return prevModRevision != 0;
    }

    /**
     * The previous value bytes, valid from 0 for {@link #prevValueLength()}. Reader thread; no
     * allocation.
     *
     * @return a buffer reused by the next read.
     */
    public DirectBuffer prevValue()
    {
        return prevValue;
    }

    /**
     * Length of the previous value; 0 without a previous key-value. Reader thread; no
     * allocation.
     *
     * @return bytes.
     */
    public int prevValueLength()
    {
        return prevValueLength;
    }

    /**
     * Create revision of the previous key-value; 0 without one. Reader thread; no allocation.
     *
     * @return the previous create revision.
     */
    public long prevCreateRevision()
    {
        return prevCreateRevision;
    }

    /**
     * Mod revision of the previous key-value; 0 without one. Reader thread; no allocation.
     *
     * @return the previous mod revision.
     */
    public long prevModRevision()
    {
        return prevModRevision;
    }

    /**
     * Version of the previous key-value; 0 without one. Reader thread; no allocation.
     *
     * @return the previous version.
     */
    public long prevVersion()
    {
        return prevVersion;
    }

    /**
     * The key's lease id after the change (etcd's {@code lease}); 0 for none and for a DELETE.
     * Reader thread; no allocation.
     *
     * @return the lease id.
     */
    public long lease()
    {
        return lease;
    }

    /**
     * The previous key-value's lease id; 0 for none or without a previous key-value. Reader
     * thread; no allocation.
     *
     * @return the previous lease id.
     */
    public long prevLease()
    {
        return prevLease;
    }

    /**
     * Sets the event's lease and previous lease, after {@link #set} (which clears them) or a copy
     * from the window. The thread filling the record; no allocation.
     *
     * @param lease     the key's lease id after the change, 0 for none.
     * @param prevLease the key's lease id before it, 0 for none.
     */
    public void leases(final long lease, final long prevLease)
    {
        this.lease = lease;
        this.prevLease = prevLease;
    }

    /**
     * When the writer appended the event, from the window's {@code NanoClock}. Reader thread;
     * no allocation.
     *
     * @return nanoseconds on the window's clock.
     */
    public long timestampNanos()
    {
        return timestampNanos;
    }

    /**
     * Describes the event's metadata (not its bytes). Reader thread; allocates the string.
     *
     * @return a readable description.
     */
    @Override
    public String toString()
    {
        return "EventRecord{sequence=" + sequence + ", revision=" + revision + ", type=" + type +
            ", keyLength=" + keyLength + ", valueLength=" + valueLength + ", createRevision=" + createRevision +
            ", version=" + version + ", prevValueLength=" + prevValueLength +
            ", prevCreateRevision=" + prevCreateRevision + ", prevModRevision=" + prevModRevision +
            ", prevVersion=" + prevVersion + ", timestampNanos=" + timestampNanos + '}';
    }
}
