package io.ringwatch.engine.dispatch;

import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.watch.Event;
import io.ringwatch.engine.watch.WatchEvent;
import io.ringwatch.ringbuffer.EventRecord;
import io.ringwatch.ringbuffer.EventType;
import org.agrona.DirectBuffer;

/**
 * A {@link WatchEvent} over an {@link EventRecord} copied out of the window, hiding the previous
 * key-value from watchers that did not ask for it. Reused slot of an {@link EventBatchView};
 * used by one consumer thread at a time.
 */
final class EventView implements WatchEvent
{
    final EventRecord record = new EventRecord();
    private boolean showPrevKv;

    void showPrevKv(final boolean show)
    {
        showPrevKv = show;
    }

    @Override
    public EventType type()
    {
        return record.type();
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
        return record.valueLength();
    }

    @Override
    public long createRevision()
    {
        return record.createRevision();
    }

    @Override
    public long modRevision()
    {
        return record.modRevision();
    }

    @Override
    public long version()
    {
        return record.version();
    }

    @Override
    public boolean hasPrevKv()
    {
        return showPrevKv && record.hasPrev();
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
    public Event toEvent()
    {
        final byte[] key = bytes(record.key(), record.keyLength());
        final KeyValue kv = new KeyValue(key, bytes(record.value(), record.valueLength()),
            record.createRevision(), record.modRevision(), record.version());
        final KeyValue prev = hasPrevKv() ?
            new KeyValue(key.clone(), bytes(record.prevValue(), record.prevValueLength()),
                record.prevCreateRevision(), record.prevModRevision(), record.prevVersion()) :
            null;
        return new Event(record.type(), kv, prev);
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
