package io.ringwatch.ringbuffer;

import static io.ringwatch.ringbuffer.TestEvents.bytes;
import static io.ringwatch.ringbuffer.TestEvents.put;
import static io.ringwatch.ringbuffer.TestEvents.readOk;
import static io.ringwatch.ringbuffer.TestEvents.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

class WatchWindowBadInputTest
{
    private static final int MAX_EVENT_BYTES = 64;

    private final ManualClock clock = new ManualClock(0);
    private final WatchWindow window = new WatchWindow(
        WindowConfig.builder().minCapacity(4).maxCapacity(8).maxEventBytes(MAX_EVENT_BYTES).build(), clock);
    private final UnsafeBuffer key = bytes("key");
    private final UnsafeBuffer big = new UnsafeBuffer(new byte[MAX_EVENT_BYTES + 1]);

    @Test
    void revisionMustNotDecreaseNorBeNonPositive()
    {
        fillWithFreshEvents();

        assertUnchangedAfter(InvalidEventException.class, () -> put(window, 3, "k", "v"));
        assertUnchangedAfter(InvalidEventException.class, () -> put(window, 0, "k", "v"));
        assertUnchangedAfter(InvalidEventException.class, () -> put(window, -1, "k", "v"));
    }

    @Test
    void eventsOverMaxEventBytesAreRejected()
    {
        fillWithFreshEvents();

        assertUnchangedAfter(EventTooLargeException.class, () -> Changes.append(window,
            10, EventType.PUT, big, 0, big.capacity(), null, 0, 0, 10, 1, null, 0, 0, 0, 0, 0));
        assertUnchangedAfter(EventTooLargeException.class, () -> Changes.append(window,
            10, EventType.PUT, key, 0, 3, big, 0, MAX_EVENT_BYTES - 2, 10, 1, null, 0, 0, 0, 0, 0));
        assertUnchangedAfter(EventTooLargeException.class, () -> Changes.append(window,
            10, EventType.DELETE, key, 0, 3, null, 0, 0, 0, 0, big, 0, MAX_EVENT_BYTES - 2, 1, 2, 1));
    }

    @Test
    void ignoredFieldsDoNotCountTowardsTheLimit()
    {
        fillWithFreshEvents();

        final long sequence = Changes.append(window,
            10, EventType.DELETE, key, 0, 3, big, 0, big.capacity(), 0, 0, big, 0, big.capacity(), 0, 0, 0);

        assertEquals(4, sequence);
    }

    @Test
    void malformedBuffersAndRevisionsAreRejected()
    {
        fillWithFreshEvents();

        assertUnchangedAfter(InvalidEventException.class, () -> Changes.append(window,
            10, null, key, 0, 3, key, 0, 3, 10, 1, null, 0, 0, 0, 0, 0));
        assertUnchangedAfter(InvalidEventException.class, () -> Changes.append(window,
            10, EventType.PUT, null, 0, 3, key, 0, 3, 10, 1, null, 0, 0, 0, 0, 0));
        assertUnchangedAfter(InvalidEventException.class, () -> Changes.append(window,
            10, EventType.PUT, key, 0, 0, key, 0, 3, 10, 1, null, 0, 0, 0, 0, 0));
        assertUnchangedAfter(InvalidEventException.class, () -> Changes.append(window,
            10, EventType.PUT, key, 2, 3, key, 0, 3, 10, 1, null, 0, 0, 0, 0, 0));
        assertUnchangedAfter(InvalidEventException.class, () -> Changes.append(window,
            10, EventType.PUT, key, -1, 3, key, 0, 3, 10, 1, null, 0, 0, 0, 0, 0));
        assertUnchangedAfter(InvalidEventException.class, () -> Changes.append(window,
            10, EventType.PUT, key, 0, 3, null, 0, 3, 10, 1, null, 0, 0, 0, 0, 0));
        assertUnchangedAfter(InvalidEventException.class, () -> Changes.append(window,
            10, EventType.PUT, key, 0, 3, key, 0, -1, 10, 1, null, 0, 0, 0, 0, 0));
        assertUnchangedAfter(InvalidEventException.class, () -> Changes.append(window,
            10, EventType.PUT, key, 0, 3, key, 0, 3, 0, 1, null, 0, 0, 0, 0, 0));
        assertUnchangedAfter(InvalidEventException.class, () -> Changes.append(window,
            10, EventType.PUT, key, 0, 3, key, 0, 3, 11, 1, null, 0, 0, 0, 0, 0));
        assertUnchangedAfter(InvalidEventException.class, () -> Changes.append(window,
            10, EventType.PUT, key, 0, 3, key, 0, 3, 10, 0, null, 0, 0, 0, 0, 0));
        assertUnchangedAfter(InvalidEventException.class, () -> Changes.append(window,
            10, EventType.PUT, key, 0, 3, key, 0, 3, 10, 1, null, 0, 3, 1, 2, 1));
        assertUnchangedAfter(InvalidEventException.class, () -> Changes.append(window,
            10, EventType.PUT, key, 0, 3, key, 0, 3, 10, 1, key, 0, 3, 1, 11, 1));
        assertUnchangedAfter(InvalidEventException.class, () -> Changes.append(window,
            10, EventType.PUT, key, 0, 3, key, 0, 3, 10, 1, key, 0, 3, 1, -1, 1));
    }

    @Test
    void readerArgumentsAreChecked()
    {
        assertThrows(IllegalArgumentException.class, () -> window.read(-1, new EventRecord()));
        assertThrows(IllegalArgumentException.class, () -> new EventRecord(-1));
        assertThrows(IllegalArgumentException.class, () -> EventType.fromCode((byte)7));
    }

    /** Four events at time 0: full with a fresh oldest event, so any accepted append would grow it. */
    private void fillWithFreshEvents()
    {
        for (long revision = 1; revision <= 4; revision++)
        {
            put(window, revision, "key-" + revision, "value-" + revision);
        }
        window.publish();
    }

    private void assertUnchangedAfter(final Class<? extends Throwable> expected, final Executable badAppend)
    {
        final long published = window.publishedSequence();
        final long publishedRevision = window.publishedRevision();

        assertThrows(expected, badAppend);
        window.publish();

        assertEquals(published, window.publishedSequence());
        assertEquals(publishedRevision, window.publishedRevision());
        assertEquals(4, window.capacity(), "no resize");
        assertEquals(0, window.growCount());
        for (long sequence = 0; sequence <= published; sequence++)
        {
            assertEquals("value-" + (sequence + 1), text(readOk(window, sequence).value(), 7));
        }
    }
}
