package io.ringwatch.server.kv;

import com.google.protobuf.ByteString;
import io.ringwatch.server.api.mvccpb.KeyValue;

/**
 * Engine key-values as etcd's mvccpb.KeyValue. Stateless; each call allocates the message.
 */
public final class KeyValues
{
    private KeyValues()
    {
    }

    /**
     * @param kv        the engine's key-value.
     * @param keysOnly  true to leave the value out (etcd's keys_only).
     * @return etcd's key-value, with the lease it is attached to (0: none).
     */
    public static KeyValue toProto(final io.ringwatch.engine.kv.KeyValue kv, final boolean keysOnly)
    {
        final KeyValue.Builder builder = KeyValue.newBuilder()
            .setKey(ByteString.copyFrom(kv.key()))
            .setCreateRevision(kv.createRevision())
            .setModRevision(kv.modRevision())
            .setVersion(kv.version())
            .setLease(kv.lease());
        if (!keysOnly)
        {
            builder.setValue(ByteString.copyFrom(kv.value()));
        }
        return builder.build();
    }
}
