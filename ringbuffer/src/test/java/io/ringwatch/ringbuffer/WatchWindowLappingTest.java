package io.ringwatch.ringbuffer;

import static io.ringwatch.ringbuffer.TestEvents.fixedCapacity;
import static io.ringwatch.ringbuffer.TestEvents.put;
import static io.ringwatch.ringbuffer.TestEvents.readOk;
import static io.ringwatch.ringbuffer.TestEvents.text;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

class WatchWindowLappingTest
{
    @Test
    void readerMoreThanCapacityBehindIsLappedAndNewerEventsAreIntact()
    {
        final WatchWindow window = new WatchWindow(fixedCapacity(8), new ManualClock(0));
        for (long revision = 1; revision <= 20; revision++)
        {
            put(window, revision, "key-" + revision, "value-" + revision);
        }
        window.publish();
        final EventRecord record = new EventRecord();

        for (long sequence = 0; sequence < 12; sequence++)
        {
            assertEquals(WatchWindow.READ_LAPPED, window.read(sequence, record), "sequence " + sequence);
        }
        for (long sequence = 12; sequence < 20; sequence++)
        {
            final EventRecord event = readOk(window, sequence);
            assertEquals(sequence + 1, event.revision());
            assertEquals("key-" + (sequence + 1), text(event.key(), event.keyLength()));
            assertEquals("value-" + (sequence + 1), text(event.value(), event.valueLength()));
        }
        assertEquals(12, window.oldestSequence());
        assertEquals(13, window.oldestRevision());
    }

    @Test
    void aWindowContinuingARecoveredHistoryReportsThatHistoryEvictedAndNotFuture()
    {
        final WatchWindow window = new WatchWindow(fixedCapacity(8), new ManualClock(0), 100);

        assertEquals(100, window.publishedRevision());
        assertEquals(WatchWindow.REVISION_EVICTED, window.firstSequenceAtOrAfter(1));
        assertEquals(WatchWindow.REVISION_EVICTED, window.firstSequenceAtOrAfter(100));
        assertEquals(0, window.firstSequenceAtOrAfter(101));

        put(window, 101, "k", "v");
        window.publish();
        assertEquals(0, window.firstSequenceAtOrAfter(101));
        assertEquals(WatchWindow.REVISION_EVICTED, window.firstSequenceAtOrAfter(100));
        assertEquals(101, readOk(window, 0).revision());
    }

    @Test
    void unpublishedAppendsLapPublishedEvents()
    {
        final WatchWindow window = new WatchWindow(fixedCapacity(4), new ManualClock(0));
        for (long revision = 1; revision <= 4; revision++)
        {
            put(window, revision, "k", "v");
        }
        window.publish();
        put(window, 5, "k", "v");
        put(window, 6, "k", "v");
        final EventRecord record = new EventRecord();

        assertEquals(WatchWindow.READ_LAPPED, window.read(0, record));
        assertEquals(WatchWindow.READ_LAPPED, window.read(1, record));
        assertEquals(WatchWindow.READ_OK, window.read(2, record));
        assertEquals(WatchWindow.READ_NOT_PUBLISHED, window.read(4, record));
        assertEquals(2, window.oldestSequence());
    }

    @Test
    void bigEventsEvictOlderEventsWhoseBytesTheyWouldOverwrite()
    {
        // 64 slots but a 4096-byte data ring: four 1000-byte events fit at a time.
        final WindowConfig config = WindowConfig.builder()
            .minCapacity(64).maxCapacity(64).maxEventBytes(1024).dataBytesPerEvent(1).build();
        final WatchWindow window = new WatchWindow(config, new ManualClock(0));
        assertEquals(4096, window.dataCapacity());
        final UnsafeBuffer key = new UnsafeBuffer(new byte[8]);
        final UnsafeBuffer value = new UnsafeBuffer(new byte[992]);
        for (int revision = 1; revision <= 10; revision++)
        {
            key.putLong(0, revision);
            final byte[] fill = new byte[992];
            Arrays.fill(fill, (byte)revision);
            value.putBytes(0, fill);
            Changes.append(window, revision, EventType.PUT, key, 0, 8, value, 0, 992, revision, 1, null, 0, 0, 0, 0, 0);
        }
        window.publish();
        final EventRecord record = new EventRecord();

        for (long sequence = 0; sequence < 6; sequence++)
        {
            assertEquals(WatchWindow.READ_LAPPED, window.read(sequence, record), "sequence " + sequence);
        }
        for (long sequence = 6; sequence < 10; sequence++)
        {
            final EventRecord event = readOk(window, sequence);
            final long revision = sequence + 1;
            assertEquals(revision, event.key().getLong(0));
            assertEquals(992, event.valueLength());
            for (int i = 0; i < 992; i++)
            {
                assertEquals((byte)revision, event.value().getByte(i), "sequence " + sequence + " byte " + i);
            }
        }
        assertEquals(6, window.dataEvictionCount());
        assertEquals(6, window.oldestSequence());
        assertEquals(64, window.capacity());
        assertEquals(WatchWindow.REVISION_EVICTED, window.firstSequenceAtOrAfter(6));
        assertEquals(6, window.firstSequenceAtOrAfter(7));
    }
}
