package io.ringwatch.ringbuffer;

import java.nio.charset.StandardCharsets;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Short ways to append and inspect simple events in tests.
 */
final class TestEvents
{
    private TestEvents()
    {
    }

    static UnsafeBuffer bytes(final String text)
    {
        return new UnsafeBuffer(text.getBytes(StandardCharsets.UTF_8));
    }

    static String text(final DirectBuffer buffer, final int length)
    {
        return buffer.getStringWithoutLengthUtf8(0, length);
    }

    /** A PUT creating {@code key} at {@code revision}, with no previous key-value. */
    static long put(final WatchWindow window, final long revision, final String key, final String value)
    {
        final UnsafeBuffer keyBytes = bytes(key);
        final UnsafeBuffer valueBytes = bytes(value);
        return Changes.append(window, revision, EventType.PUT, keyBytes, 0, keyBytes.capacity(),
            valueBytes, 0, valueBytes.capacity(), revision, 1, null, 0, 0, 0, 0, 0);
    }

    /** A DELETE of {@code key} at {@code revision}, with no previous key-value. */
    static long delete(final WatchWindow window, final long revision, final String key)
    {
        final UnsafeBuffer keyBytes = bytes(key);
        return Changes.append(window, revision, EventType.DELETE, keyBytes, 0, keyBytes.capacity(),
            null, 0, 0, 0, 0, null, 0, 0, 0, 0, 0);
    }

    /** Reads {@code sequence}, failing unless the read succeeds. */
    static EventRecord readOk(final WatchWindow window, final long sequence)
    {
        final EventRecord record = new EventRecord();
        final int result = window.read(sequence, record);
        if (WatchWindow.READ_OK != result)
        {
            throw new AssertionError("read of " + sequence + " returned " + result);
        }
        return record;
    }

    static WindowConfig fixedCapacity(final int capacity)
    {
        return WindowConfig.builder().minCapacity(capacity).maxCapacity(capacity).build();
    }
}
