package io.ringwatch.engine.internal.dispatch;

import io.ringwatch.engine.internal.secondary.IndexMatch;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.watch.Event;
import io.ringwatch.engine.watch.EventType;
import io.ringwatch.engine.watch.WatchEvent;
import io.ringwatch.ringbuffer.EventRecord;
import org.agrona.DirectBuffer;

/**
 * A {@link WatchEvent} over an {@link EventRecord} copied out of the window, hiding the previous
 * key-value from watchers that did not ask for it, and showing a watcher by index the event as
 * its {@link IndexMatch} mode says (a delete-like event, an add, or as it is). Reused slot of an
 * {@link EventBatchView}; used by one consumer thread at a time.
 */
final class EventView implements WatchEvent
{
    final EventRecord record = new EventRecord();
    private boolean showPrevKv;
    private int mode = IndexMatch.AS_IS;

    void show(final boolean prevKv, final int indexMatch)
    {
        showPrevKv = prevKv;
        mode = indexMatch;
    }

    @Override
    public EventType type()
    {
        // The ring's type mapped to the API's: a constant either way, no allocation.
        return mode == IndexMatch.AS_DELETE || record.type() != io.ringwatch.ringbuffer.EventType.PUT ? EventType.DELETE : EventType.PUT;
    }

    @Override
    public long revision()
    {
        return record.revision();
    }

    @Override
    public DirectBuffer keyBuffer()
    {
        return record.key();
    }

    @Override
    public int keyLength()
    {
        return record.keyLength();
    }

    @Override
    public DirectBuffer valueBuffer()
    {
        return record.value();
    }

    @Override
    public int valueLength()
    {
        return mode == IndexMatch.AS_DELETE ? 0 : record.valueLength();
    }

    @Override
    public long createRevision()
    {
        return mode == IndexMatch.AS_DELETE ? 0 : record.createRevision();
    }

    @Override
    public long modRevision()
    {
        // A delete's key-value carries only its revision (etcd), whatever the event really was.
        return mode == IndexMatch.AS_DELETE ? record.revision() : record.modRevision();
    }

    @Override
    public long version()
    {
        return mode == IndexMatch.AS_DELETE ? 0 : record.version();
    }

    @Override
    public boolean hasPrevKv()
    {
        return showPrevKv && mode != IndexMatch.AS_ADD && record.hasPrev();
    }

    @Override
    public DirectBuffer prevValueBuffer()
    {
        return record.prevValue();
    }

    @Override
    public int prevValueLength()
    {
        return hasPrevKv() ? record.prevValueLength() : 0;
    }

    @Override
    public long prevCreateRevision()
    {
        return hasPrevKv() ? record.prevCreateRevision() : 0;
    }

    @Override
    public long prevModRevision()
    {
        return hasPrevKv() ? record.prevModRevision() : 0;
    }

    @Override
    public long prevVersion()
    {
        return hasPrevKv() ? record.prevVersion() : 0;
    }

    @Override
    public long lease()
    {
        return mode == IndexMatch.AS_DELETE ? 0 : record.lease();
    }

    @Override
    public long prevLease()
    {
        return hasPrevKv() ? record.prevLease() : 0;
    }

    @Override
    public Event toEvent()
    {
        final byte[] key = bytes(record.key(), record.keyLength());
        final KeyValue kv = new KeyValue(key, bytes(record.value(), valueLength()), createRevision(), modRevision(), version(), lease());
        final KeyValue prev = hasPrevKv() ?
            new KeyValue(key.clone(), bytes(record.prevValue(), record.prevValueLength()),
                record.prevCreateRevision(), record.prevModRevision(), record.prevVersion(), record.prevLease()) :
            null;
        return new Event(type(), kv, prev);
    }

    @Override
    public String toString()
    {
        return toEvent().toString();
    }

    private static byte[] bytes(final DirectBuffer buffer, final int length)
    {
        final byte[] bytes = new byte[length];
        if (length > 0)
        {
            buffer.getBytes(0, bytes);
        }
        return bytes;
    }
}
