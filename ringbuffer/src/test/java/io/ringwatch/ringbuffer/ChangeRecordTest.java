package io.ringwatch.ringbuffer;

import static java.nio.ByteOrder.LITTLE_ENDIAN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

class ChangeRecordTest
{
    @Test
    void changesThatOutgrowTheBufferReadBackWholeInTheLogLayout()
    {
        final ChangeRecord record = new ChangeRecord();
        final UnsafeBuffer key = bytes(40, 3);
        final UnsafeBuffer value = bytes(300, 5);
        final UnsafeBuffer prev = bytes(200, 9);
        record.add(EventType.PUT, key, 2, 30, value, 1, 290, 7, 11, 3, 42, prev, 4, 150, 7, 9, 2, 41);
        record.add(EventType.DELETE, key, 0, 17, null, 0, 0, 0, 0, 0, 0, prev, 0, 200, 8, 10, 4, 43);
        record.add(EventType.PUT, key, 5, 1, value, 0, 0, 12, 12, 1, 0, null, 0, 0, 0, 0, 0, 0);

        assertEquals(3, record.count());
        assertEquals(3 * ChangeRecord.FIXED_LENGTH + 30 + 290 + 150 + 17 + 200 + 1, record.length());
        // The fixed part is little-endian at the log's offsets.
        assertEquals(30, record.buffer().getInt(ChangeRecord.KEY_LENGTH, LITTLE_ENDIAN));
        assertEquals(11, record.buffer().getLong(ChangeRecord.MOD_REVISION, LITTLE_ENDIAN));

        record.rewind();
        assertTrue(record.next());
        assertChange(record, ChangeRecord.PUT, key, 2, 30, value, 1, 290, 7, 11, 3, 42, prev, 4, 150, 7, 9, 2, 41);
        assertTrue(record.next());
        assertChange(record, ChangeRecord.DELETE, key, 0, 17, value, 0, 0, 0, 0, 0, 0, prev, 0, 200, 8, 10, 4, 43);
        assertTrue(record.next());
        assertChange(record, ChangeRecord.PUT, key, 5, 1, value, 0, 0, 12, 12, 1, 0, prev, 0, 0, 0, 0, 0, 0);
        assertFalse(record.next());
    }

    @Test
    void trimFreesABufferGrownPastTheRetainedCapacityAndKeepsASmallerOne()
    {
        final ChangeRecord record = new ChangeRecord();
        final UnsafeBuffer key = bytes(16, 1);
        final UnsafeBuffer value = bytes(ChangeRecord.RETAINED_CAPACITY / 2, 2);
        record.add(EventType.PUT, key, 0, 16, value, 0, 1000, 1, 1, 1, 0, null, 0, 0, 0, 0, 0, 0);
        final DirectBuffer kept = record.buffer();
        record.trim();
        assertSame(kept, record.buffer(), "a buffer within the retained capacity is kept");
        assertEquals(1, record.count(), "trimming a small record changes nothing");

        record.clear();
        record.add(EventType.PUT, key, 0, 16, value, 0, value.capacity(), 2, 2, 1, 0, value, 0, value.capacity(), 1, 1, 1, 0);
        final DirectBuffer grown = record.buffer();
        assertTrue(grown.capacity() > ChangeRecord.RETAINED_CAPACITY, "two half-capacity values grow it past the retained capacity");
        record.clear();
        assertSame(grown, record.buffer(), "clear keeps the buffer: the revision's reader may still hold it");
        record.add(EventType.PUT, key, 0, 16, value, 0, value.capacity(), 3, 3, 2, 0, value, 0, value.capacity(), 2, 2, 1, 0);
        record.trim();
        assertTrue(record.buffer().capacity() <= ChangeRecord.RETAINED_CAPACITY,
            "after a huge revision the record keeps " + record.buffer().capacity() + " bytes, not " + grown.capacity());
        assertEquals(0, record.count());
        assertEquals(0, record.length());

        record.clear();
        record.add(EventType.PUT, key, 0, 16, value, 5, 300, 4, 4, 3, 0, null, 0, 0, 0, 0, 0, 0);
        record.rewind();
        assertTrue(record.next());
        assertChange(record, ChangeRecord.PUT, key, 0, 16, value, 5, 300, 4, 4, 3, 0, value, 0, 0, 0, 0, 0, 0);
        assertFalse(record.next());
    }

    private static UnsafeBuffer bytes(final int length, final int seed)
    {
        final byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++)
        {
            bytes[i] = (byte)(seed + 13 * i);
        }
        return new UnsafeBuffer(bytes);
    }

    private static void assertChange(
        final ChangeRecord record, final byte type,
        final UnsafeBuffer key, final int keyOffset, final int keyLength,
        final UnsafeBuffer value, final int valueOffset, final int valueLength,
        final long createRevision, final long modRevision, final long version, final long lease,
        final UnsafeBuffer prev, final int prevOffset, final int prevLength,
        final long prevCreateRevision, final long prevModRevision, final long prevVersion, final long prevLease)
    {
        assertEquals(type, record.typeCode());
        assertEquals(keyLength, record.keyLength());
        assertEquals(valueLength, record.valueLength());
        assertEquals(prevLength, record.prevValueLength());
        assertEquals(createRevision, record.createRevision());
        assertEquals(modRevision, record.modRevision());
        assertEquals(version, record.version());
        assertEquals(lease, record.lease());
        assertEquals(prevCreateRevision, record.prevCreateRevision());
        assertEquals(prevModRevision, record.prevModRevision());
        assertEquals(prevVersion, record.prevVersion());
        assertEquals(prevLease, record.prevLease());
        assertBytes(key, keyOffset, record.key(), keyLength);
        assertBytes(value, valueOffset, record.value(), valueLength);
        assertBytes(prev, prevOffset, record.prevValue(), prevLength);
    }

    private static void assertBytes(final UnsafeBuffer expected, final int offset, final org.agrona.DirectBuffer actual, final int length)
    {
        assertEquals(length, actual.capacity());
        for (int i = 0; i < length; i++)
        {
            assertEquals(expected.getByte(offset + i), actual.getByte(i), "byte " + i);
        }
    }
}
