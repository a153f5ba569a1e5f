package io.ringwatch.ringbuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

class EventTypeTest
{
    @Test
    void codesAreStableAndRoundTrip()
    {
        assertEquals(0, EventType.PUT.code());
        assertEquals(1, EventType.DELETE.code());
        for (final EventType type : EventType.values())
        {
            assertSame(type, EventType.fromCode(type.code()));
        }
    }
}
