package io.ringwatch.ringbuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * Events whose every field and byte is a function of their sequence, so that a reader can tell a
 * torn or mixed copy from a real event. Two events per revision, like small transactions; bursts
 * of large values put the data ring under pressure.
 */
final class DerivedEvents
{
    static final int MAX_EVENT_BYTES = 1024;

    private final UnsafeBuffer key = new UnsafeBuffer(new byte[MAX_EVENT_BYTES]);
    private final UnsafeBuffer value = new UnsafeBuffer(new byte[MAX_EVENT_BYTES]);
    private final UnsafeBuffer prevValue = new UnsafeBuffer(new byte[MAX_EVENT_BYTES]);

    static long revision(final long sequence)
    {
        return sequence / 2 + 1;
    }

    static long firstSequenceOf(final long revision)
    {
        return (revision - 1) * 2;
    }

    private static EventType type(final long sequence)
    {
        return sequence % 5 == 4 ? EventType.DELETE : EventType.PUT;
    }

    private static int keyLength(final long sequence)
    {
        return 8 + (int)(sequence % 9);
    }

    private static int valueLength(final long sequence)
    {
        if (type(sequence) == EventType.DELETE)
        {
            return 0;
        }
        final boolean largeBurst = (sequence / 1_000) % 7 == 3;
        return largeBurst ? 400 + (int)(sequence % 50) : (int)((sequence * 7919) % 200);
    }

    private static boolean hasPrev(final long sequence)
    {
        return sequence % 3 != 0 && revision(sequence) > 1;
    }

    private static int prevValueLength(final long sequence)
    {
        return hasPrev(sequence) ? (int)(sequence % 50) : 0;
    }

    private static byte keyByte(final long sequence, final int index)
    {
        return (byte)(sequence + index);
    }

    private static byte valueByte(final long sequence, final int index)
    {
        return (byte)(sequence * 31 + index);
    }

    private static byte prevValueByte(final long sequence, final int index)
    {
        return (byte)(sequence ^ (index * 7L));
    }

    /** Writer thread: appends the event for {@code sequence}, which must be the window's next. */
    void append(final WatchWindow window, final long sequence)
    {
        final int keyLength = keyLength(sequence);
        key.putLong(0, sequence);
        for (int i = 8; i < keyLength; i++)
        {
            key.putByte(i, keyByte(sequence, i));
        }
        final int valueLength = valueLength(sequence);
        for (int i = 0; i < valueLength; i++)
        {
            value.putByte(i, valueByte(sequence, i));
        }
        final int prevValueLength = prevValueLength(sequence);
        for (int i = 0; i < prevValueLength; i++)
        {
            prevValue.putByte(i, prevValueByte(sequence, i));
        }
        final long revision = revision(sequence);
        final long appended = Changes.append(window,
            revision, type(sequence), key, 0, keyLength, value, 0, valueLength,
            sequence % revision + 1, sequence + 1,
            prevValue, 0, prevValueLength,
            sequence + 3, hasPrev(sequence) ? revision - 1 : 0, sequence + 5);
        assertEquals(sequence, appended);
    }

    /** Any thread: asserts that {@code record} is exactly the event of {@code sequence}. */
    static void assertIsEvent(final EventRecord record, final long sequence, final String context)
    {
        final String where = context + ", sequence " + sequence;
        final boolean isPut = type(sequence) == EventType.PUT;
        final long revision = revision(sequence);
        assertEquals(sequence, record.sequence(), where);
        assertEquals(revision, record.revision(), where);
        assertEquals(type(sequence), record.type(), where);
        assertEquals(isPut ? sequence % revision + 1 : 0, record.createRevision(), where);
        assertEquals(isPut ? sequence + 1 : 0, record.version(), where);
        assertEquals(hasPrev(sequence), record.hasPrev(), where);
        assertEquals(hasPrev(sequence) ? sequence + 3 : 0, record.prevCreateRevision(), where);
        assertEquals(hasPrev(sequence) ? revision - 1 : 0, record.prevModRevision(), where);
        assertEquals(hasPrev(sequence) ? sequence + 5 : 0, record.prevVersion(), where);

        assertEquals(keyLength(sequence), record.keyLength(), where);
        assertEquals(sequence, record.key().getLong(0), where);
        for (int i = 8; i < record.keyLength(); i++)
        {
            assertEquals(keyByte(sequence, i), record.key().getByte(i), where);
        }
        assertEquals(valueLength(sequence), record.valueLength(), where);
        for (int i = 0; i < record.valueLength(); i++)
        {
            assertEquals(valueByte(sequence, i), record.value().getByte(i), where);
        }
        assertEquals(prevValueLength(sequence), record.prevValueLength(), where);
        for (int i = 0; i < record.prevValueLength(); i++)
        {
            assertEquals(prevValueByte(sequence, i), record.prevValue().getByte(i), where);
        }
    }
}
