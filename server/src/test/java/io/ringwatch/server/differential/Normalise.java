package io.ringwatch.server.differential;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import com.google.protobuf.TextFormat;
import io.ringwatch.server.api.etcdserverpb.LeaseLeasesResponse;
import io.ringwatch.server.api.etcdserverpb.LeaseStatus;
import io.ringwatch.server.api.etcdserverpb.LeaseTimeToLiveResponse;
import io.ringwatch.server.api.etcdserverpb.ResponseHeader;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Takes out of an answer what legitimately differs between two servers: the header's cluster id,
 * member id and raft term (every header, nested transaction answers included), the order of
 * LeaseLeases and of a TimeToLive's keys (etcd's come from Go maps), and a TimeToLive's remaining
 * seconds (wall-clock; only its sign is compared). Stateless.
 */
final class Normalise
{
    private Normalise()
    {
    }

    /**
     * @param message an answer.
     * @return it normalised, as one line of protobuf text.
     */
    static String text(final Message message)
    {
        return message.getClass().getSimpleName() + " "
            + TextFormat.printer().emittingSingleLine(true).printToString(normalise(message));
    }

    static Message normalise(final Message message)
    {
        if (message instanceof ResponseHeader header)
        {
            return header.toBuilder().setClusterId(header.getClusterId() == 0 ? 0 : 1).setMemberId(header.getMemberId() == 0 ? 0 : 1).setRaftTerm(header.getRaftTerm() == 0 ? 0 : 1).build();
        }
        if (message instanceof LeaseLeasesResponse leases)
        {
            final List<LeaseStatus> sorted = new ArrayList<>(leases.getLeasesList());
            sorted.sort(Comparator.comparingLong(LeaseStatus::getID));
            return normaliseFields(leases.toBuilder().clearLeases().addAllLeases(sorted).build());
        }
        if (message instanceof LeaseTimeToLiveResponse ttl)
        {
            final List<ByteString> keys = new ArrayList<>(ttl.getKeysList());
            keys.sort(ByteString.unsignedLexicographicalComparator());
            return normaliseFields(ttl.toBuilder().setTTL(Long.signum(ttl.getTTL())).clearKeys().addAllKeys(keys).build());
        }
        return normaliseFields(message);
    }

    private static Message normaliseFields(final Message message)
    {
        final Message.Builder builder = message.toBuilder();
        for (final Map.Entry<FieldDescriptor, Object> field : message.getAllFields().entrySet())
        {
            final FieldDescriptor descriptor = field.getKey();
            if (descriptor.getJavaType() != FieldDescriptor.JavaType.MESSAGE)
            {
                continue;
            }
            if (descriptor.isRepeated())
            {
                builder.clearField(descriptor);
                for (final Object element : (List<?>) field.getValue())
                {
                    builder.addRepeatedField(descriptor, normalise((Message) element));
                }
            }
            else
            {
                builder.setField(descriptor, normalise((Message) field.getValue()));
            }
        }
        return builder.build();
    }
}
