package io.ringwatch.server.watch;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnsafeByteOperations;
import io.ringwatch.server.api.mvccpb.Event;
import io.ringwatch.server.api.mvccpb.KeyValue;
import io.ringwatch.engine.watch.EventType;
import io.ringwatch.engine.watch.WatchEvent;
import org.agrona.DirectBuffer;

/**
 * Copies the engine's flyweight watch events into etcd's mvccpb.Event. Stateless; each call
 * allocates the message and one array per key and value.
 */
final class EventProtos
{
    private EventProtos()
    {
    }

    /**
     * @param event the flyweight, valid only during the listener call that handed it out.
     * @return etcd's event, which outlives it.
     */
    static Event toProto(final WatchEvent event)
    {
        final ByteString key = copy(event.keyBuffer(), event.keyLength());
        final Event.Builder proto = Event.newBuilder()
            .setType(event.type() == EventType.PUT ? Event.EventType.PUT : Event.EventType.DELETE)
            .setKv(KeyValue.newBuilder()
                .setKey(key)
                .setValue(copy(event.valueBuffer(), event.valueLength()))
                .setCreateRevision(event.createRevision())
                .setModRevision(event.modRevision())
                .setVersion(event.version())
                .setLease(event.lease()));
        if (event.hasPrevKv())
        {
            proto.setPrevKv(KeyValue.newBuilder()
                .setKey(key)
                .setValue(copy(event.prevValueBuffer(), event.prevValueLength()))
                .setCreateRevision(event.prevCreateRevision())
                .setModRevision(event.prevModRevision())
                .setVersion(event.prevVersion())
                .setLease(event.prevLease()));
        }
        return proto.build();
    }

    private static ByteString copy(final DirectBuffer buffer, final int length)
    {
        if (length == 0)
        {
            return ByteString.EMPTY;
        }
        final byte[] bytes = new byte[length];
        buffer.getBytes(0, bytes);
        // A fresh array nobody else holds: wrapping it saves ByteString's second copy.
        return UnsafeByteOperations.unsafeWrap(bytes);
    }
}
