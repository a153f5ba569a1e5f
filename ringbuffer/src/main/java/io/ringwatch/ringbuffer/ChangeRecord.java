package io.ringwatch.ringbuffer;

import static java.nio.ByteOrder.LITTLE_ENDIAN;

import java.nio.ByteOrder;

import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableDirectByteBuffer;
import org.agrona.UnsafeApi;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One revision's changes, built once by the writer and consumed where they go: the
 * {@link WatchWindow} copies each change into its rings ({@link WatchWindow#append(long, ChangeRecord)}),
 * the journal copies the encoded bytes whole, and a roll-back reads the states before. A flyweight
 * over one buffer it owns, in the manner of Agrona's {@code BufferClaim}: the changes lie back to
 * back, each with the key's state after and before it.
 * <p>
 * The layout of a change is the revision log's per-change excerpt layout, so the journal copies
 * {@code [0, length())} without re-encoding:
 * <pre>
 * per change (little-endian):
 *   0 byte  type ({@link #PUT} or {@link #DELETE})   1 int keyLength   5 int valueLength   9 int prevValueLength
 *  13 long  createRevision  21 long modRevision  29 long version
 *  37 long  prevCreateRevision  45 long prevModRevision (0: the key was absent)  53 long prevVersion
 *  61 long  lease (0: none)  69 long prevLease
 *  77 key bytes, value bytes, previous value bytes
 * </pre>
 * Stored as etcd reports them: a DELETE has no value and 0 createRevision, modRevision and version;
 * a change without a previous key-value has no previous value and 0 previous revisions.
 * <p>
 * Threading: one thread builds (the writer); another may read after a release/acquire hand-over
 * (the journal stage), never both at once. Allocation: the buffer grows to the largest revision
 * seen, then nothing, up to {@value #RETAINED_CAPACITY} bytes; a buffer grown past that is freed
 * by {@link #trim()}, which the engine calls once a revision is complete, so a record that once held
 * a huge revision does not keep its memory (what {@link #buffer()} returned must not be read after).
 */
public final class ChangeRecord
{
    /** Type code of a PUT: the revision log's code, so that the journal copies changes as they are. */
    public static final byte PUT = 1;
    /** Type code of a DELETE: the revision log's code. */
    public static final byte DELETE = 2;

    /** Offset of the type code in a change. */
    public static final int TYPE = 0;
    /** Offset of the key length in a change. */
    public static final int KEY_LENGTH = 1;
    /** Offset of the value length in a change. */
    public static final int VALUE_LENGTH = 5;
    /** Offset of the previous value's length in a change. */
    public static final int PREV_VALUE_LENGTH = 9;
    /** Offset of the key's createRevision after the change. */
    public static final int CREATE_REVISION = 13;
    /** Offset of the key's modRevision after the change. */
    public static final int MOD_REVISION = 21;
    /** Offset of the key's version after the change. */
    public static final int VERSION = 29;
    /** Offset of the previous createRevision. */
    public static final int PREV_CREATE_REVISION = 37;
    /** Offset of the previous modRevision. */
    public static final int PREV_MOD_REVISION = 45;
    /** Offset of the previous version. */
    public static final int PREV_VERSION = 53;
    /** Offset of the key's lease id after the change (0: none). */
    public static final int LEASE = 61;
    /** Offset of the key's lease id before the change. */
    public static final int PREV_LEASE = 69;
    /** Length of a change's fixed part; its key, value and previous value follow. */
    public static final int FIXED_LENGTH = 77;

    /**
     * The largest buffer a record keeps across {@link #clear()}: a write ring's slots each own a
     * record, so this bounds what a burst of huge revisions leaves held (ring size times this)
     * while revisions of values up to about half of it reuse their buffer without allocating.
     */
    public static final int RETAINED_CAPACITY = 64 * 1024;
    private static final int INITIAL_CAPACITY = 256;
    private static final boolean LITTLE_ENDIAN_NATIVE = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    private ExpandableDirectByteBuffer buffer = new ExpandableDirectByteBuffer(INITIAL_CAPACITY);
    private final UnsafeBuffer key = new UnsafeBuffer(0, 0);
    private final UnsafeBuffer value = new UnsafeBuffer(0, 0);
    private final UnsafeBuffer prevValue = new UnsafeBuffer(0, 0);
    private int length;
    private int count;
    private int position = -1;

    /**
     * Creates an empty record. Any thread; allocates the buffer (direct memory).
     */
    public ChangeRecord()
    {
    }

    /**
     * Empties the record: the writer starts a revision. Builder thread; no allocation.
     */
    public void clear()
    {
        length = 0;
        count = 0;
        position = -1;
    }

    /**
     * Frees the buffer if it grew past {@link #RETAINED_CAPACITY} and starts a small one: for the
     * thread done with the record's revision (the changes are gone afterwards). Builder thread, or
     * the reader that holds the record after the hand-over; allocates the new buffer only then.
     */
    public void trim()
    {
        if (buffer.capacity() > RETAINED_CAPACITY)
        {
            // Freed now, not by a collection: a writer that puts huge values one after another
            // would otherwise reach the direct memory limit before the cleaner caught up.
            BufferUtil.free(buffer);
            buffer = new ExpandableDirectByteBuffer(INITIAL_CAPACITY);
            length = 0;
            count = 0;
            position = -1;
        }
    }

    /**
     * How many changes the record holds. Any thread that may read the record; no allocation.
     *
     * @return the count.
     */
    public int count()
    {
        return count;
    }

    /**
     * How many bytes the changes take, from offset 0 of {@link #buffer()}. No allocation.
     *
     * @return the length in bytes.
     */
    public int length()
    {
        return length;
    }

    /**
     * The buffer the changes lie in, valid for {@code [0, length())} until the next
     * {@link #clear()} or {@code add}. No allocation.
     *
     * @return the buffer; read it, never write it.
     */
    public DirectBuffer buffer()
    {
        return buffer;
    }

    /**
     * Appends one change and positions the record on it, so it can be handed on at once. Stores
     * it as etcd reports it: for {@link EventType#DELETE} the value, createRevision, modRevision
     * and version are ignored and stored as empty and 0; with {@code prevModRevision == 0} the
     * previous value and revisions are ignored and stored as empty and 0. Builder thread; no
     * allocation unless the buffer grows.
     *
     * @param type               PUT or DELETE.
     * @param key                holds the key.
     * @param keyOffset          offset of the key in {@code key}.
     * @param keyLength          length of the key.
     * @param value              holds the new value; may be null for a DELETE or an empty value.
     * @param valueOffset        offset of the value in {@code value}.
     * @param valueLength        length of the value.
     * @param createRevision     the key's createRevision after a PUT.
     * @param modRevision        the key's modRevision after a PUT: the change's revision.
     * @param version            the key's version after a PUT.
     * @param prevValue          holds the previous value; may be null when there is none.
     * @param prevValueOffset    offset of the previous value in {@code prevValue}.
     * @param prevValueLength    length of the previous value.
     * @param prevCreateRevision the previous createRevision.
     * @param prevModRevision    the previous modRevision, 0 when the key was absent.
     * @param prevVersion        the previous version.
     * @throws InvalidEventException if the type is null or a range lies outside its buffer; the
     *                               record is unchanged.
     */
    public void add(
        final EventType type,
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength,
        final long createRevision, final long modRevision, final long version,
        final DirectBuffer prevValue, final int prevValueOffset, final int prevValueLength,
        final long prevCreateRevision, final long prevModRevision, final long prevVersion)
    {
        add(type, key, keyOffset, keyLength, value, valueOffset, valueLength, createRevision, modRevision, version, 0,
            prevValue, prevValueOffset, prevValueLength, prevCreateRevision, prevModRevision, prevVersion, 0);
    }

    /**
     * As the other {@code add}, with the key's lease after the change (ignored and stored as 0 for
     * a DELETE) and before it (ignored when {@code prevModRevision == 0}). Builder thread; no
     * allocation unless the record grows.
     *
     * @param type               PUT or DELETE.
     * @param key                holds the key.
     * @param keyOffset          offset of the key in {@code key}.
     * @param keyLength          length of the key.
     * @param value              holds the new value; may be null for a DELETE or an empty value.
     * @param valueOffset        offset of the value in {@code value}.
     * @param valueLength        length of the value.
     * @param createRevision     the key's createRevision after a PUT.
     * @param modRevision        the key's modRevision after a PUT: the change's revision.
     * @param version            the key's version after a PUT.
     * @param lease              the key's lease id after a PUT, 0 for none.
     * @param prevValue          holds the previous value; may be null when there is none.
     * @param prevValueOffset    offset of the previous value in {@code prevValue}.
     * @param prevValueLength    length of the previous value.
     * @param prevCreateRevision the previous createRevision.
     * @param prevModRevision    the previous modRevision, 0 when the key was absent.
     * @param prevVersion        the previous version.
     * @param prevLease          the previous lease id, 0 for none.
     * @throws InvalidEventException if the type is null or a range lies outside its buffer; the
     *                               record is unchanged.
     */
    public void add(
        final EventType type,
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength,
        final long createRevision, final long modRevision, final long version, final long lease,
        final DirectBuffer prevValue, final int prevValueOffset, final int prevValueLength,
        final long prevCreateRevision, final long prevModRevision, final long prevVersion, final long prevLease)
    {
        if (null == type)
        {
            throw new InvalidEventException("type must not be null");
        }
        final boolean isPut = EventType.PUT == type;
        final boolean hasPrev = 0 != prevModRevision;
        requireRange("key", key, keyOffset, keyLength);
        final int storedValueLength = isPut ? valueLength : 0;
        if (isPut)
        {
            requireRange("value", value, valueOffset, valueLength);
        }
        final int storedPrevLength = hasPrev ? prevValueLength : 0;
        if (hasPrev)
        {
            requireRange("prevValue", prevValue, prevValueOffset, prevValueLength);
        }

        final int at = length;
        final int bytesAt = at + FIXED_LENGTH;
        final int end = bytesAt + keyLength + storedValueLength + storedPrevLength;
        // One capacity check for the whole change; every store below then lies inside the buffer, so
        // they go to their addresses without a check each (the writer builds one change per put).
        buffer.checkLimit(end);
        final long address = buffer.addressOffset() + at;
        UnsafeApi.putByte(address + TYPE, isPut ? PUT : DELETE);
        putIntLittleEndian(address + KEY_LENGTH, keyLength);
        putIntLittleEndian(address + VALUE_LENGTH, storedValueLength);
        putIntLittleEndian(address + PREV_VALUE_LENGTH, storedPrevLength);
        putLongLittleEndian(address + CREATE_REVISION, isPut ? createRevision : 0);
        putLongLittleEndian(address + MOD_REVISION, isPut ? modRevision : 0);
        putLongLittleEndian(address + VERSION, isPut ? version : 0);
        putLongLittleEndian(address + PREV_CREATE_REVISION, hasPrev ? prevCreateRevision : 0);
        putLongLittleEndian(address + PREV_MOD_REVISION, prevModRevision);
        putLongLittleEndian(address + PREV_VERSION, hasPrev ? prevVersion : 0);
        putLongLittleEndian(address + LEASE, isPut ? lease : 0);
        putLongLittleEndian(address + PREV_LEASE, hasPrev ? prevLease : 0);
        long bytes = address + FIXED_LENGTH;
        if (keyLength > 0)
        {
            UncheckedCopy.copy(key.byteArray(), key.addressOffset() + keyOffset, null, bytes, keyLength);
            bytes += keyLength;
        }
        if (storedValueLength > 0)
        {
            UncheckedCopy.copy(value.byteArray(), value.addressOffset() + valueOffset, null, bytes, storedValueLength);
            bytes += storedValueLength;
        }
        if (storedPrevLength > 0)
        {
            UncheckedCopy.copy(prevValue.byteArray(), prevValue.addressOffset() + prevValueOffset, null, bytes, storedPrevLength);
        }
        length = end;
        count++;
        moveTo(at);
    }

    private static void putIntLittleEndian(final long address, final int value)
    {
        UnsafeApi.putInt(address, LITTLE_ENDIAN_NATIVE ? value : Integer.reverseBytes(value));
    }

    private static void putLongLittleEndian(final long address, final long value)
    {
        UnsafeApi.putLong(address, LITTLE_ENDIAN_NATIVE ? value : Long.reverseBytes(value));
    }

    /**
     * Positions the reading side before the first change. Reading thread; no allocation.
     */
    public void rewind()
    {
        position = -1;
    }

    /**
     * Moves to the next change; its fields are then readable through the getters. Reading
     * thread; no allocation.
     *
     * @return false past the last change.
     */
    public boolean next()
    {
        final int next = position < 0 ? 0 : position + FIXED_LENGTH + keyLength() + valueLength() + prevValueLength();
        if (next >= length)
        {
            return false;
        }
        moveTo(next);
        return true;
    }

    /**
     * The current change's type. No allocation.
     *
     * @return PUT or DELETE.
     */
    public EventType type()
    {
        return PUT == typeCode() ? EventType.PUT : EventType.DELETE;
    }

    /**
     * The current change's type code as stored. No allocation.
     *
     * @return {@link #PUT} or {@link #DELETE}.
     */
    public byte typeCode()
    {
        return buffer.getByte(position + TYPE);
    }

    /**
     * The current change's key, from offset 0 for {@link #keyLength()}. No allocation.
     *
     * @return a view valid until the record moves or changes.
     */
    public DirectBuffer key()
    {
        return key;
    }

    /**
     * @return the current change's key length.
     */
    public int keyLength()
    {
        return buffer.getInt(position + KEY_LENGTH, LITTLE_ENDIAN);
    }

    /**
     * The current change's new value, from offset 0 for {@link #valueLength()}. No allocation.
     *
     * @return a view valid until the record moves or changes.
     */
    public DirectBuffer value()
    {
        return value;
    }

    /**
     * @return the current change's value length, 0 for a DELETE.
     */
    public int valueLength()
    {
        return buffer.getInt(position + VALUE_LENGTH, LITTLE_ENDIAN);
    }

    /**
     * @return the key's createRevision after the current change, 0 for a DELETE.
     */
    public long createRevision()
    {
        return buffer.getLong(position + CREATE_REVISION, LITTLE_ENDIAN);
    }

    /**
     * @return the key's modRevision after the current change, 0 for a DELETE.
     */
    public long modRevision()
    {
        return buffer.getLong(position + MOD_REVISION, LITTLE_ENDIAN);
    }

    /**
     * @return the key's version after the current change, 0 for a DELETE.
     */
    public long version()
    {
        return buffer.getLong(position + VERSION, LITTLE_ENDIAN);
    }

    /**
     * The current change's previous value, from offset 0 for {@link #prevValueLength()}. No
     * allocation.
     *
     * @return a view valid until the record moves or changes.
     */
    public DirectBuffer prevValue()
    {
        return prevValue;
    }

    /**
     * @return the current change's previous value length, 0 when the key was absent.
     */
    public int prevValueLength()
    {
        return buffer.getInt(position + PREV_VALUE_LENGTH, LITTLE_ENDIAN);
    }

    /**
     * @return the previous createRevision, 0 when the key was absent.
     */
    public long prevCreateRevision()
    {
        return buffer.getLong(position + PREV_CREATE_REVISION, LITTLE_ENDIAN);
    }

    /**
     * @return the previous modRevision, 0 when the key was absent.
     */
    public long prevModRevision()
    {
        return buffer.getLong(position + PREV_MOD_REVISION, LITTLE_ENDIAN);
    }

    /**
     * @return the previous version, 0 when the key was absent.
     */
    public long prevVersion()
    {
        return buffer.getLong(position + PREV_VERSION, LITTLE_ENDIAN);
    }

    /**
     * @return the key's lease id after the current change, 0 for none and for a DELETE.
     */
    public long lease()
    {
        return buffer.getLong(position + LEASE, LITTLE_ENDIAN);
    }

    /**
     * @return the key's lease id before the current change, 0 for none or when the key was absent.
     */
    public long prevLease()
    {
        return buffer.getLong(position + PREV_LEASE, LITTLE_ENDIAN);
    }

    /**
     * Where the current change's key starts in {@link #buffer()}; its value and previous value
     * follow it contiguously, which lets the window copy all three at once.
     */
    int bytesOffset()
    {
        return position + FIXED_LENGTH;
    }

    private void moveTo(final int at)
    {
        position = at;
        final long base = buffer.addressOffset() + at + FIXED_LENGTH;
        final int keyLength = keyLength();
        final int valueLength = valueLength();
        key.wrap(base, keyLength);
        value.wrap(base + keyLength, valueLength);
        prevValue.wrap(base + keyLength + valueLength, prevValueLength());
    }

    private static void requireRange(final String name, final DirectBuffer buffer, final int offset, final int length)
    {
        if (length < 0 || offset < 0)
        {
            throw new InvalidEventException(name + " offset and length must not be negative: " + offset + ", " + length);
        }
        if (null == buffer)
        {
            if (length > 0)
            {
                throw new InvalidEventException(name + " buffer is null but length is " + length);
            }
            return;
        }
        if ((long)offset + length > buffer.capacity())
        {
            throw new InvalidEventException(name + " range [" + offset + ", " + ((long)offset + length) +
                ") exceeds buffer capacity " + buffer.capacity());
        }
    }
}
