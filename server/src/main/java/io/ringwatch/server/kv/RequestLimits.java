package io.ringwatch.server.kv;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.MessageLite;
import io.ringwatch.server.rpc.EtcdErrors;

/**
 * etcd's limits on a KV request, as its --max-request-bytes and --max-txn-ops set them: a write
 * (put, delete, or a transaction with any operation but a range) is refused with "request is too
 * large" when the raft request etcd would propose for it is over the byte limit, and a transaction
 * with more operations in one list than the ops limit with "too many operations in txn request".
 * etcd's raft request (InternalRaftRequest) wraps the write with a header holding a request id whose
 * top 16 bits are the member id's low 16 (idutil's generator, the time below them), so the limit
 * falls a few bytes below the write's own size, by as many bytes as etcd's member would add.
 * Immutable and thread-safe; allocates only the error it throws.
 */
public final class RequestLimits
{
    private final int maxRequestBytes;
    private final int maxTxnOps;
    /** The raft request's bytes around the write but its field's length: the header, its tags, the write's tag. */
    private final int envelopeBytes;

    /**
     * @param maxRequestBytes etcd's --max-request-bytes.
     * @param maxTxnOps       etcd's --max-txn-ops.
     * @param memberId        the member whose request ids etcd would generate.
     */
    public RequestLimits(final int maxRequestBytes, final int maxTxnOps, final long memberId)
    {
        this.maxRequestBytes = maxRequestBytes;
        this.maxTxnOps = maxTxnOps;
        // idutil: member id's low 16 bits << 48 | millisecond time's low 40 bits << 8 | count; the
        // time's top bit is set from 2004 to 2039, so a member whose low 16 bits are 0 has 48-bit ids.
        final long requestId = (memberId & 0xFFFF) << 48 | 1L << 47;
        // header: field 100 (2-byte tag), its length (1 byte), its ID field (tag and varint); the
        // write's field (4, 5 or 6: a 1-byte tag); the write's length is added per request.
        envelopeBytes = 2 + 1 + 1 + CodedOutputStream.computeUInt64SizeNoTag(requestId) + 1;
    }

    /**
     * @return etcd's --max-txn-ops.
     */
    int maxTxnOps()
    {
        return maxTxnOps;
    }

    /**
     * Refuses a write whose raft request would be over the limit, as etcd does after its request
     * checks. Any thread; no allocation unless it throws.
     *
     * @param write a put, delete or writing transaction, already checked.
     * @throws io.grpc.StatusRuntimeException etcd's "request is too large".
     */
    void checkWrite(final MessageLite write)
    {
        final int bytes = write.getSerializedSize();
        if ((long)envelopeBytes + CodedOutputStream.computeUInt32SizeNoTag(bytes) + bytes > maxRequestBytes)
        {
            throw EtcdErrors.requestTooLarge();
        }
    }
}
