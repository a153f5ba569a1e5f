package io.ringwatch.server.watch;

import io.ringwatch.engine.watch.Event;
import io.ringwatch.engine.watch.EventType;
import io.ringwatch.engine.watch.WatchEvent;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * A pump's cache of event messages: the same change asked for again is the message built the
 * first time; a change that differs in revision, key, version, type or previous key-value is
 * its own message; a large event is built every time; and whatever the cache evicted, every
 * message it hands out equals the one built afresh.
 */
class EventProtoCacheTest
{
    private final EventProtoCache cache = new EventProtoCache();

    @Test
    void theSameChangeIsBuiltOnceAndEqualsAFreshBuild()
    {
        final FakeEvent event = new FakeEvent(EventType.PUT, 7, "k", 3, "value", null);
        final io.ringwatch.server.api.mvccpb.Event first = cache.toProto(event);
        assertEquals(EventProtos.toProto(event), first);
        assertSame(first, cache.toProto(new FakeEvent(EventType.PUT, 7, "k", 3, "value", null)), "a hit hands out the kept message");
    }

    @Test
    void changesThatDifferAreTheirOwnMessages()
    {
        final FakeEvent base = new FakeEvent(EventType.PUT, 7, "k", 3, "value", null);
        final FakeEvent[] others = {
            new FakeEvent(EventType.PUT, 8, "k", 3, "value", null),
            new FakeEvent(EventType.PUT, 7, "j", 3, "value", null),
            new FakeEvent(EventType.PUT, 7, "kk", 3, "value", null),
            new FakeEvent(EventType.PUT, 7, "k", 4, "value", null),
            new FakeEvent(EventType.DELETE, 7, "k", 3, "", null),
            new FakeEvent(EventType.PUT, 7, "k", 3, "value", "before"),
        };
        cache.toProto(base);
        for (final FakeEvent other : others)
        {
            assertEquals(EventProtos.toProto(other), cache.toProto(other), () -> "its own message: " + other);
        }
        assertEquals(EventProtos.toProto(base), cache.toProto(base));
    }

    @Test
    void aLargeEventIsNotKept()
    {
        final FakeEvent large = new FakeEvent(EventType.PUT, 7, "k", 3, "v".repeat(EventProtoCache.MAX_CACHED_BYTES), null);
        final io.ringwatch.server.api.mvccpb.Event first = cache.toProto(large);
        assertEquals(EventProtos.toProto(large), first);
        assertNotSame(first, cache.toProto(large), "built again, not kept");
    }

    @Test
    void everyMessageIsRightWhateverWasEvicted()
    {
        final int changes = EventProtoCache.SLOTS * 4;
        for (int round = 0; round < 2; round++)
        {
            for (int i = 0; i < changes; i++)
            {
                final FakeEvent event = new FakeEvent(EventType.PUT, 1 + i / 7, "key/" + (i % 7), 1 + i, "v" + i, i % 3 == 0 ? "p" + i : null);
                assertEquals(EventProtos.toProto(event), cache.toProto(event), () -> "round and change: " + event);
            }
        }
    }

    /** A change as the engine's flyweight shows it. */
    private static final class FakeEvent implements WatchEvent
    {
        private final EventType type;
        private final long revision;
        private final String key;
        private final long version;
        private final String value;
        private final String prev;

        FakeEvent(final EventType type, final long revision, final String key, final long version, final String value, final String prev)
        {
            this.type = type;
            this.revision = revision;
            this.key = key;
            this.version = version;
            this.value = value;
            this.prev = prev;
        }

        private static DirectBuffer buffer(final String text)
        {
            return new UnsafeBuffer(text.getBytes(StandardCharsets.UTF_8));
        }

        @Override
        public EventType type()
        {
            return type;
        }

        @Override
        public long revision()
        {
            return revision;
        }

        @Override
        public DirectBuffer keyBuffer()
        {
            return buffer(key);
        }

        @Override
        public int keyLength()
        {
            return key.length();
        }

        @Override
        public DirectBuffer valueBuffer()
        {
            return buffer(value);
        }

        @Override
        public int valueLength()
        {
            return value.length();
        }

        @Override
        public long createRevision()
        {
            return 1;
        }

        @Override
        public long modRevision()
        {
            return revision;
        }

        @Override
        public long version()
        {
            return version;
        }

        @Override
        public long lease()
        {
            return 0;
        }

        @Override
        public boolean hasPrevKv()
        {
            return prev != null;
        }

        @Override
        public DirectBuffer prevValueBuffer()
        {
            return buffer(prev);
        }

        @Override
        public int prevValueLength()
        {
            return prev.length();
        }

        @Override
        public long prevCreateRevision()
        {
            return 1;
        }

        @Override
        public long prevModRevision()
        {
            return revision - 1;
        }

        @Override
        public long prevVersion()
        {
            return version - 1;
        }

        @Override
        public long prevLease()
        {
            return 0;
        }

        @Override
        public Event toEvent()
        {
            throw new UnsupportedOperationException("not needed by the cache");
        }

        @Override
        public String toString()
        {
            return type + " " + key + "@" + revision + " v" + version + " prev " + prev;
        }
    }
}
