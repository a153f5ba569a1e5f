package io.ringwatch.ringbuffer;

import static io.ringwatch.ringbuffer.TestEvents.bytes;
import static io.ringwatch.ringbuffer.TestEvents.delete;
import static io.ringwatch.ringbuffer.TestEvents.put;
import static io.ringwatch.ringbuffer.TestEvents.readOk;
import static io.ringwatch.ringbuffer.TestEvents.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

class WatchWindowRoundTripTest
{
    private final ManualClock clock = new ManualClock(1_000);
    private final WatchWindow window = new WatchWindow(WindowConfig.defaults(), clock);

    @Test
    void putWithPreviousKeyValueRoundTripsEveryField()
    {
        final UnsafeBuffer source = bytes("xxkey-1yyvalue-twozzprev-one!");
        clock.set(42_000);

        final long sequence = Changes.append(window, 7, EventType.PUT, source, 2, 5, source, 9, 9, 3, 4,
            source, 20, 8, 3, 5, 3);
        window.publish();

        assertEquals(0, sequence);
        final EventRecord record = readOk(window, 0);
        assertEquals(0, record.sequence());
        assertEquals(7, record.revision());
        assertSame(EventType.PUT, record.type());
        assertEquals("key-1", text(record.key(), record.keyLength()));
        assertEquals("value-two", text(record.value(), record.valueLength()));
        assertEquals(3, record.createRevision());
        assertEquals(7, record.modRevision());
        assertEquals(4, record.version());
        assertTrue(record.hasPrev());
        assertEquals("prev-one", text(record.prevValue(), record.prevValueLength()));
        assertEquals(3, record.prevCreateRevision());
        assertEquals(5, record.prevModRevision());
        assertEquals(3, record.prevVersion());
        assertEquals(42_000, record.timestampNanos());
    }

    @Test
    void readKeyCopiesMetadataAndKeyButLeavesTheValueBuffersAlone()
    {
        final UnsafeBuffer source = bytes("key-1value-twoprev-onekey-2other-val");
        Changes.append(window, 7, EventType.PUT, source, 0, 5, source, 5, 9, 3, 4, source, 14, 8, 3, 5, 3);
        Changes.append(window, 8, EventType.PUT, source, 22, 5, source, 27, 9, 8, 1, null, 0, 0, 0, 0, 0);
        window.publish();
        final EventRecord record = readOk(window, 0);

        assertEquals(WatchWindow.READ_OK, window.readKey(1, record));
        assertEquals("key-2", text(record.key(), record.keyLength()));
        assertEquals(8, record.revision());
        assertSame(EventType.PUT, record.type());
        assertEquals(9, record.valueLength());
        assertEquals("value-two", text(record.value(), 9), "the value bytes were not copied");
        assertEquals(WatchWindow.READ_NOT_PUBLISHED, window.readKey(2, record));
    }

    @Test
    void setFillsARecordFromOutsideAWindowWithTheWindowsConventions()
    {
        final UnsafeBuffer source = bytes("key-1value-twoprev-one");
        final EventRecord record = new EventRecord(2);

        record.set(9, EventType.PUT, source, 0, 5, source, 5, 9, 4, 2, source, 14, 8, 4, 6, 1, 77);
        assertEquals(-1, record.sequence());
        assertEquals("key-1", text(record.key(), record.keyLength()));
        assertEquals("value-two", text(record.value(), record.valueLength()));
        assertEquals("prev-one", text(record.prevValue(), record.prevValueLength()));
        assertEquals(9, record.modRevision());
        assertEquals(4, record.createRevision());
        assertEquals(2, record.version());
        assertEquals(6, record.prevModRevision());
        assertEquals(77, record.timestampNanos());

        record.set(10, EventType.DELETE, source, 0, 5, source, 5, 9, 4, 2, null, 0, 0, 0, 0, 0, 78);
        assertSame(EventType.DELETE, record.type());
        assertEquals(0, record.valueLength());
        assertEquals(0, record.createRevision());
        assertEquals(0, record.version());
        assertFalse(record.hasPrev());
        assertThrows(InvalidEventException.class,
            () -> record.set(0, EventType.PUT, source, 0, 5, source, 5, 9, 1, 1, null, 0, 0, 0, 0, 0, 0));
    }

    @Test
    void deleteStoresAnEtcdTombstoneWhateverValueFieldsArePassed()
    {
        final UnsafeBuffer key = bytes("gone");
        final UnsafeBuffer ignored = bytes("ignored value");
        final UnsafeBuffer prev = bytes("last");

        Changes.append(window, 9, EventType.DELETE, key, 0, 4, ignored, 0, 13, 2, 8, prev, 0, 4, 2, 6, 8);
        window.publish();

        final EventRecord record = readOk(window, 0);
        assertSame(EventType.DELETE, record.type());
        assertEquals("gone", text(record.key(), record.keyLength()));
        assertEquals(0, record.valueLength());
        assertEquals(0, record.createRevision());
        assertEquals(0, record.version());
        assertEquals(9, record.modRevision());
        assertTrue(record.hasPrev());
        assertEquals("last", text(record.prevValue(), record.prevValueLength()));
        assertEquals(2, record.prevCreateRevision());
        assertEquals(6, record.prevModRevision());
        assertEquals(8, record.prevVersion());
    }

    @Test
    void zeroPrevModRevisionMeansNoPreviousKeyValue()
    {
        final UnsafeBuffer key = bytes("k");
        final UnsafeBuffer prev = bytes("should not be stored");

        Changes.append(window, 1, EventType.PUT, key, 0, 1, key, 0, 1, 1, 1, prev, 0, prev.capacity(), 9, 0, 9);
        window.publish();

        final EventRecord record = readOk(window, 0);
        assertFalse(record.hasPrev());
        assertEquals(0, record.prevValueLength());
        assertEquals(0, record.prevCreateRevision());
        assertEquals(0, record.prevVersion());
    }

    @Test
    void appendedEventsAreInvisibleUntilPublished()
    {
        final EventRecord record = new EventRecord();
        assertEquals(-1, window.publishedSequence());
        assertEquals(0, window.publishedRevision());
        assertEquals(WatchWindow.READ_NOT_PUBLISHED, window.read(0, record));

        put(window, 1, "a", "1");
        put(window, 2, "b", "2");

        assertEquals(-1, window.publishedSequence());
        assertEquals(WatchWindow.READ_NOT_PUBLISHED, window.read(0, record));

        window.publish();

        assertEquals(1, window.publishedSequence());
        assertEquals(2, window.publishedRevision());
        assertEquals(WatchWindow.READ_OK, window.read(0, record));
        assertEquals(WatchWindow.READ_OK, window.read(1, record));
        assertEquals(WatchWindow.READ_NOT_PUBLISHED, window.read(2, record));
    }

    @Test
    void transactionEventsShareARevisionAndHaveDenseSequences()
    {
        put(window, 1, "solo", "x");
        window.publish();

        assertEquals(1, put(window, 2, "a", "1"));
        assertEquals(2, put(window, 2, "b", "2"));
        assertEquals(3, delete(window, 2, "c"));
        window.publish();

        assertEquals(3, window.publishedSequence());
        assertEquals(2, window.publishedRevision());
        assertEquals(1, window.firstSequenceAtOrAfter(2));
        for (long sequence = 1; sequence <= 3; sequence++)
        {
            assertEquals(2, readOk(window, sequence).revision());
        }
        assertEquals("c", text(readOk(window, 3).key(), 1));
    }

    @Test
    void reusedRecordReportsTheLatestEventsLengths()
    {
        put(window, 1, "a-long-key", "a-long-value");
        put(window, 2, "k", "v");
        window.publish();
        final EventRecord record = new EventRecord(0);

        assertEquals(WatchWindow.READ_OK, window.read(0, record));
        assertEquals("a-long-value", text(record.value(), record.valueLength()));
        assertEquals(WatchWindow.READ_OK, window.read(1, record));

        assertEquals("k", text(record.key(), record.keyLength()));
        assertEquals("v", text(record.value(), record.valueLength()));
    }

    @Test
    void emptyWindowReportsNoOldestEvent()
    {
        assertEquals(0, window.oldestSequence());
        assertEquals(0, window.oldestRevision());

        put(window, 5, "a", "1");
        window.publish();

        assertEquals(0, window.oldestSequence());
        assertEquals(5, window.oldestRevision());
    }
}
