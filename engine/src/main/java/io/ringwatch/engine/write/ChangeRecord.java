package io.ringwatch.engine.write;

import io.ringwatch.ringbuffer.EventType;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableDirectByteBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One revision's changes as the writer built them, in its write-ring slot: each change with the
 * key's state after and before it, written once by the writer and read by the journal stage
 * (which appends them to the journal) and by a roll-back (which restores the states before). A
 * flyweight over the slot's own buffer, in the manner of Agrona's {@code BufferClaim}: the slot
 * owns the bytes, this class only knows the layout.
 * <pre>
 * per change (native byte order):
 *   0 byte  type (0 PUT, 1 DELETE)   1 int keyLength   5 int valueLength   9 int prevValueLength
 *  13 long  createRevision  21 long version
 *  29 long  prevCreateRevision  37 long prevModRevision (0: the key was absent)  45 long prevVersion
 *  53 key bytes, value bytes, previous value bytes
 * </pre>
 * Writer thread while it builds a revision, then the journal stage (behind the hand-over's
 * release). The buffer grows to the largest revision seen, then allocates nothing.
 */
final class ChangeRecord
{
    private static final int TYPE = 0;
    private static final int KEY_LENGTH = 1;
    private static final int VALUE_LENGTH = 5;
    private static final int PREV_VALUE_LENGTH = 9;
    private static final int CREATE_REVISION = 13;
    private static final int VERSION = 21;
    private static final int PREV_CREATE_REVISION = 29;
    private static final int PREV_MOD_REVISION = 37;
    private static final int PREV_VERSION = 45;
    private static final int FIXED_LENGTH = 53;

    private final ExpandableDirectByteBuffer buffer = new ExpandableDirectByteBuffer(256);
    private final UnsafeBuffer key = new UnsafeBuffer(0, 0);
    private final UnsafeBuffer value = new UnsafeBuffer(0, 0);
    private final UnsafeBuffer prevValue = new UnsafeBuffer(0, 0);
    private int length;
    private int count;
    private int position;

    /** Empties the record: the writer starts a revision. */
    void clear()
    {
        length = 0;
        count = 0;
    }

    /**
     * @return how many changes the record holds.
     */
    int count()
    {
        return count;
    }

    /**
     * Adds one change. Writer thread; allocates only to grow the buffer.
     *
     * @param type               PUT or DELETE.
     * @param key                holds the key at 0.
     * @param keyLength          the key's length.
     * @param newValue           holds the new value at 0; null for a DELETE.
     * @param valueLength        the new value's length, 0 for a DELETE.
     * @param createRevision     the key's createRevision after a PUT, 0 for a DELETE.
     * @param version            the key's version after a PUT, 0 for a DELETE.
     * @param prev               holds the previous value at 0; null when the key was absent.
     * @param prevValueLength    the previous value's length.
     * @param prevCreateRevision the previous createRevision, 0 when absent.
     * @param prevModRevision    the previous modRevision, 0 when absent.
     * @param prevVersion        the previous version, 0 when absent.
     */
    void add(
        final EventType type,
        final DirectBuffer key, final int keyLength,
        final DirectBuffer newValue, final int valueLength,
        final long createRevision, final long version,
        final DirectBuffer prev, final int prevValueLength,
        final long prevCreateRevision, final long prevModRevision, final long prevVersion)
    {
        final int at = length;
        final ExpandableDirectByteBuffer buffer = this.buffer;
        buffer.putByte(at + TYPE, type == EventType.PUT ? (byte)0 : (byte)1);
        buffer.putInt(at + KEY_LENGTH, keyLength);
        buffer.putInt(at + VALUE_LENGTH, valueLength);
        buffer.putInt(at + PREV_VALUE_LENGTH, prevValueLength);
        buffer.putLong(at + CREATE_REVISION, createRevision);
        buffer.putLong(at + VERSION, version);
        buffer.putLong(at + PREV_CREATE_REVISION, prevCreateRevision);
        buffer.putLong(at + PREV_MOD_REVISION, prevModRevision);
        buffer.putLong(at + PREV_VERSION, prevVersion);
        int bytesAt = at + FIXED_LENGTH;
        buffer.putBytes(bytesAt, key, 0, keyLength);
        bytesAt += keyLength;
        if (valueLength > 0)
        {
            buffer.putBytes(bytesAt, newValue, 0, valueLength);
            bytesAt += valueLength;
        }
        if (prevValueLength > 0)
        {
            buffer.putBytes(bytesAt, prev, 0, prevValueLength);
            bytesAt += prevValueLength;
        }
        length = bytesAt;
        count++;
    }

    /** Positions the reading side before the first change. */
    void rewind()
    {
        position = -1;
    }

    /**
     * Moves to the next change; its fields are then readable through the getters.
     *
     * @return false past the last change.
     */
    boolean next()
    {
        position = position < 0 ? 0 : position + FIXED_LENGTH + keyLength() + valueLength() + prevValueLength();
        if (position >= length)
        {
            return false;
        }
        final long base = buffer.addressOffset() + position + FIXED_LENGTH;
        key.wrap(base, keyLength());
        value.wrap(base + keyLength(), valueLength());
        prevValue.wrap(base + keyLength() + valueLength(), prevValueLength());
        return true;
    }

    EventType type()
    {
        return buffer.getByte(position + TYPE) == 0 ? EventType.PUT : EventType.DELETE;
    }

    DirectBuffer key()
    {
        return key;
    }

    int keyLength()
    {
        return buffer.getInt(position + KEY_LENGTH);
    }

    DirectBuffer value()
    {
        return value;
    }

    int valueLength()
    {
        return buffer.getInt(position + VALUE_LENGTH);
    }

    long createRevision()
    {
        return buffer.getLong(position + CREATE_REVISION);
    }

    long version()
    {
        return buffer.getLong(position + VERSION);
    }

    DirectBuffer prevValue()
    {
        return prevValue;
    }

    int prevValueLength()
    {
        return buffer.getInt(position + PREV_VALUE_LENGTH);
    }

    long prevCreateRevision()
    {
        return buffer.getLong(position + PREV_CREATE_REVISION);
    }

    long prevModRevision()
    {
        return buffer.getLong(position + PREV_MOD_REVISION);
    }

    long prevVersion()
    {
        return buffer.getLong(position + PREV_VERSION);
    }
}
