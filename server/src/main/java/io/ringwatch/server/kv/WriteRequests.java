package io.ringwatch.server.kv;

import io.ringwatch.server.api.etcdserverpb.DeleteRangeRequest;
import io.ringwatch.server.api.etcdserverpb.DeleteRangeResponse;
import io.ringwatch.server.api.etcdserverpb.PutRequest;
import io.ringwatch.server.api.etcdserverpb.PutResponse;
import io.ringwatch.engine.kv.WriteResult;
import io.ringwatch.server.rpc.MemberIdentity;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.server.rpc.EtcdErrors;
import io.ringwatch.server.rpc.KeyRanges;

/**
 * Checks etcd's put and delete requests (etcd's checkPutRequest and checkDeleteRequest; whether a
 * put's lease exists is the engine's to decide, in order with the writes), turns them into engine
 * operations and the engine's results into etcd's responses. Stateless.
 */
final class WriteRequests
{
    private WriteRequests()
    {
    }

    /**
     * @param request a put.
     * @throws io.grpc.StatusRuntimeException etcd's error for an empty key, a value with ignore_value,
     *                                        or a lease with ignore_lease.
     */
    static void checkPut(final PutRequest request)
    {
        if (request.getKey().isEmpty())
        {
            throw EtcdErrors.emptyKey();
        }
        if (request.getIgnoreValue() && !request.getValue().isEmpty())
        {
            throw EtcdErrors.valueProvided();
        }
        if (request.getIgnoreLease() && request.getLease() != 0)
        {
            throw EtcdErrors.leaseProvided();
        }
    }

    /**
     * Refuses a put of a key longer than the engine holds ({@code RingWatch.maxKeyBytes}, at most
     * 64 KiB), checked where etcd checks the request's size: etcd takes any key within
     * --max-request-bytes, and this server, which cannot hold it, answers with etcd's nearest
     * refusal, "request is too large". Any thread; no allocation unless it throws.
     *
     * @param request     a checked put.
     * @param maxKeyBytes the engine's longest key.
     * @throws io.grpc.StatusRuntimeException etcd's "request is too large".
     */
    static void checkKeyFits(final PutRequest request, final int maxKeyBytes)
    {
        if (request.getKey().size() > maxKeyBytes)
        {
            throw EtcdErrors.requestTooLarge();
        }
    }

    /**
     * @param request a delete.
     * @throws io.grpc.StatusRuntimeException etcd's error for an empty key.
     */
    static void checkDelete(final DeleteRangeRequest request)
    {
        if (request.getKey().isEmpty())
        {
            throw EtcdErrors.emptyKey();
        }
    }

    /**
     * @param request a checked put without ignore_value.
     * @return the engine's put: its lease (none: the key leaves its lease, as in etcd), or the
     *         key's current lease kept for ignore_lease.
     */
    static Op put(final PutRequest request)
    {
        return put(request, request.getValue().toByteArray());
    }

    /**
     * @param request a checked put.
     * @param value   the value to put (the key's current one for ignore_value).
     * @return the engine's put, as {@link #put(PutRequest)}.
     */
    static Op put(final PutRequest request, final byte[] value)
    {
        Op op = Op.put(request.getKey().toByteArray(), value);
        if (request.getIgnoreLease())
        {
            op = op.withIgnoreLease();
        }
        else if (request.getLease() != 0)
        {
            op = op.withLease(request.getLease());
        }
        return request.getPrevKv() ? op.withPrevKv() : op;
    }

    /**
     * @param request     a checked delete.
     * @param maxKeyBytes the engine's longest key.
     * @return the engine's delete, or null when its range holds no key the engine can hold.
     */
    static Op delete(final DeleteRangeRequest request, final int maxKeyBytes)
    {
        final KeyRange range = KeyRanges.of(request.getKey(), request.getRangeEnd(), maxKeyBytes);
        if (range == null)
        {
            return null;
        }
        final Op op = Op.delete(range);
        return request.getPrevKv() ? op.withPrevKv() : op;
    }

    /**
     * @param member  fills the header.
     * @param request the put.
     * @param result  what the engine did.
     * @return etcd's response, with the previous key-value when asked for and present.
     */
    static PutResponse putResponse(final MemberIdentity member, final PutRequest request, final WriteResult result)
    {
        final PutResponse.Builder response = PutResponse.newBuilder().setHeader(member.header(result.revision()));
        if (request.getPrevKv() && result.prevKv() != null)
        {
            response.setPrevKv(KeyValues.toProto(result.prevKv(), false));
        }
        return response.build();
    }

    /**
     * @param member        fills the header.
     * @param request       the delete.
     * @param result        what the engine did, or null when the range held no key.
     * @param emptyRevision the header revision for an empty range.
     * @return etcd's response, with the deleted key-values when asked for.
     */
    static DeleteRangeResponse deleteResponse(final MemberIdentity member, final DeleteRangeRequest request,
        final WriteResult result, final long emptyRevision)
    {
        if (result == null)
        {
            return DeleteRangeResponse.newBuilder().setHeader(member.header(emptyRevision)).build();
        }
        final DeleteRangeResponse.Builder response = DeleteRangeResponse.newBuilder()
            .setHeader(member.header(result.revision()))
            .setDeleted(result.deleted());
        if (request.getPrevKv())
        {
            for (final io.ringwatch.engine.kv.KeyValue kv : result.prevKvs())
            {
                response.addPrevKvs(KeyValues.toProto(kv, false));
            }
        }
        return response.build();
    }
}
