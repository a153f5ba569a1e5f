package io.ringwatch.server.watch;

import io.ringwatch.engine.watch.WatchEvent;
import io.ringwatch.server.api.mvccpb.Event;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Arrays;

/**
 * The etcd events one pump built lately, so that an event that reaches many watches is turned into
 * an {@link Event} once, not once per watch: with 100 watches of every put, building the same
 * message 100 times was a third of the pump's CPU, and every copy was garbage. The message is
 * immutable, so the watches' responses share it (and its memoised size). An event is known by its
 * revision, key, version, type and whether it carries the previous key-value: etcd allows a key
 * once per revision, so these name one change and, with the flag, one message.
 *
 * <p>Direct-mapped: {@link #SLOTS} slots, a new event takes its slot from whatever held it (a
 * collision costs a build, never a wrong event). Only small events are kept
 * ({@link #MAX_CACHED_BYTES} of key and values), so a pump's cache holds about 4 MiB at most
 * however large the values are.
 *
 * <p>One pump's thread only (each stream, and so each watch, belongs to one pump); no lock. A hit
 * allocates nothing; a miss allocates the message, as {@link EventProtos#toProto} does.
 */
final class EventProtoCache
{
    /** Slots, a power of two: the responses of many watches that catch up from a little apart. */
    static final int SLOTS = 4096;
    /** Key and value bytes past which an event is built every time, not kept. */
    static final int MAX_CACHED_BYTES = 512;
    private static final int MASK = SLOTS - 1;

    private final long[] revisions = new long[SLOTS];
    private final long[] versions = new long[SLOTS];
    /** The type's ordinal, plus 2 when the event carries its previous key-value; -1 when empty. */
    private final int[] kinds = new int[SLOTS];
    /** Each slot's key, a buffer over an array of exactly its length. */
    private final UnsafeBuffer[] keys = new UnsafeBuffer[SLOTS];
    private final Event[] events = new Event[SLOTS];

    EventProtoCache()
    {
        Arrays.fill(kinds, -1);
    }

    /**
     * @param event the flyweight, valid only during the listener call that handed it out.
     * @return etcd's event for it: the one built for the same change before if still kept, else
     *         a new one.
     */
    Event toProto(final WatchEvent event)
    {
        final int keyLength = event.keyLength();
        if (keyLength + event.valueLength() + (event.hasPrevKv() ? event.prevValueLength() : 0) > MAX_CACHED_BYTES)
        {
            return EventProtos.toProto(event);
        }
        final DirectBuffer key = event.keyBuffer();
        final long revision = event.revision();
        final long version = event.version();
        final int kind = event.type().ordinal() + (event.hasPrevKv() ? 2 : 0);
        // The key's last 8 bytes tell apart the keys of one revision, which is all a slot needs:
        // a collision costs a build, and the hit is checked on the whole key.
        final long tail = keyLength >= Long.BYTES ? key.getLong(keyLength - Long.BYTES) : shortKey(key, keyLength);
        final long hash = (revision * 0x9E3779B97F4A7C15L) ^ (version * 0xC2B2AE3D27D4EB4FL) ^ (tail * 0x165667B19E3779F9L) ^ keyLength;
        final int slot = (int)(hash ^ (hash >>> 29) ^ (hash >>> 47)) & MASK;
        final UnsafeBuffer kept = keys[slot];
        if (kinds[slot] == kind && revisions[slot] == revision && versions[slot] == version && sameKey(kept, key, keyLength))
        {
            return events[slot];
        }
        final Event proto = EventProtos.toProto(event);
        revisions[slot] = revision;
        versions[slot] = version;
        kinds[slot] = kind;
        keep(slot, key, keyLength);
        events[slot] = proto;
        return proto;
    }

    private void keep(final int slot, final DirectBuffer key, final int keyLength)
    {
        UnsafeBuffer kept = keys[slot];
        if (kept == null)
        {
            kept = new UnsafeBuffer(new byte[keyLength]);
            keys[slot] = kept;
        }
        else if (kept.capacity() != keyLength)
        {
            kept.wrap(new byte[keyLength]);
        }
        kept.putBytes(0, key, 0, keyLength);
    }

    private static long shortKey(final DirectBuffer key, final int length)
    {
        long bytes = 0;
        for (int i = 0; i < length; i++)
        {
            bytes = bytes << 8 | (key.getByte(i) & 0xFF);
        }
        return bytes;
    }

    private static boolean sameKey(final UnsafeBuffer kept, final DirectBuffer key, final int length)
    {
        if (kept == null || kept.capacity() != length)
        {
            return false;
        }
        int i = 0;
        for (; i + Long.BYTES <= length; i += Long.BYTES)
        {
            if (kept.getLong(i) != key.getLong(i))
            {
                return false;
            }
        }
        for (; i < length; i++)
        {
            if (kept.getByte(i) != key.getByte(i))
            {
                return false;
            }
        }
        return true;
    }
}
