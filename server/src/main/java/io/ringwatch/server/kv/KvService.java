package io.ringwatch.server.kv;

import io.ringwatch.server.api.etcdserverpb.CompactionRequest;
import io.ringwatch.server.api.etcdserverpb.CompactionResponse;
import io.ringwatch.server.api.etcdserverpb.DeleteRangeRequest;
import io.ringwatch.server.api.etcdserverpb.DeleteRangeResponse;
import io.ringwatch.server.api.etcdserverpb.KVGrpc;
import io.ringwatch.server.api.etcdserverpb.PutRequest;
import io.ringwatch.server.api.etcdserverpb.PutResponse;
import io.ringwatch.server.api.etcdserverpb.RangeRequest;
import io.ringwatch.server.api.etcdserverpb.RangeResponse;
import io.ringwatch.server.api.etcdserverpb.TxnRequest;
import io.ringwatch.server.api.etcdserverpb.TxnResponse;
import io.grpc.stub.StreamObserver;
import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.WriteResult;
import io.ringwatch.server.rpc.EtcdErrors;
import io.ringwatch.server.rpc.MemberIdentity;
import io.ringwatch.server.rpc.Unary;

import java.util.Objects;
import java.util.Optional;

/**
 * etcd's KV service (Range, Put, DeleteRange, Txn, Compact) over an engine's public API. Each call
 * runs on the gRPC executor's thread and waits for the engine (a write returns once applied, or
 * once durable in SYNC mode). Errors carry etcd's codes and messages ({@link EtcdErrors}); a
 * refused request changes nothing. Thread-safe; allocates per request.
 */
public final class KvService extends KVGrpc.KVImplBase
{
    private final RingWatch engine;
    private final MemberIdentity member;

    /**
     * @param engine the engine to serve.
     * @param member fills the response headers.
     */
    public KvService(final RingWatch engine, final MemberIdentity member)
    {
        this.engine = Objects.requireNonNull(engine, "engine");
        this.member = Objects.requireNonNull(member, "member");
    }

    /**
     * etcd's Range: key, range_end, limit, revision, sort, keys_only, count_only, revision filters.
     *
     * @param request  the range.
     * @param response receives the key-values and the count.
     */
    @Override
    public void range(final RangeRequest request, final StreamObserver<RangeResponse> response)
    {
        Unary.answer(response, () ->
        {
            RangeQuery.check(request);
            return RangeQuery.execute(engine, member, request, 0);
        });
    }

    /**
     * etcd's Put, with prev_kv, ignore_value and ignore_lease; any lease id is not found.
     *
     * @param request  the put.
     * @param response receives the revision and the previous key-value.
     */
    @Override
    public void put(final PutRequest request, final StreamObserver<PutResponse> response)
    {
        Unary.answer(response, () ->
        {
            WriteRequests.checkPut(request);
            final WriteResult result = request.getIgnoreValue() || request.getIgnoreLease() ?
                putOverExisting(request) : engine.write(WriteRequests.put(request));
            return WriteRequests.putResponse(member, request, result);
        });
    }

    /**
     * etcd's DeleteRange, with prev_kv.
     *
     * @param request  the delete.
     * @param response receives the number deleted and their key-values.
     */
    @Override
    public void deleteRange(final DeleteRangeRequest request, final StreamObserver<DeleteRangeResponse> response)
    {
        Unary.answer(response, () ->
        {
            WriteRequests.checkDelete(request);
            final Op delete = WriteRequests.delete(request);
            final WriteResult result = delete == null ? null : engine.write(delete);
            return WriteRequests.deleteResponse(member, request, result, engine.currentRevision());
        });
    }

    /**
     * etcd's Txn; see {@link TxnExecutor} for what the engine's transaction does not support.
     *
     * @param request  the transaction.
     * @param response receives the branch taken and each operation's response.
     */
    @Override
    public void txn(final TxnRequest request, final StreamObserver<TxnResponse> response)
    {
        Unary.answer(response, () -> TxnExecutor.execute(engine, member, request));
    }

    /**
     * etcd's Compact: drops the history before the revision at once (physical or not).
     *
     * @param request  the compaction.
     * @param response receives the header.
     */
    @Override
    public void compact(final CompactionRequest request, final StreamObserver<CompactionResponse> response)
    {
        Unary.answer(response, () ->
        {
            if (request.getRevision() <= engine.compactRevision())
            {
                throw EtcdErrors.compacted();
            }
            engine.compact(request.getRevision());
            return CompactionResponse.newBuilder().setHeader(member.header(engine.currentRevision())).build();
        });
    }

    /**
     * ignore_value and ignore_lease keep what the key holds, so the key must exist: read it, then
     * put only if it did not change meanwhile, until that holds.
     */
    private WriteResult putOverExisting(final PutRequest request)
    {
        final byte[] key = request.getKey().toByteArray();
        while (true)
        {
            final Optional<KeyValue> current = engine.get(key);
            if (current.isEmpty())
            {
                throw EtcdErrors.keyNotFound();
            }
            final byte[] value = request.getIgnoreValue() ? current.get().value() : request.getValue().toByteArray();
            final WriteResult result = engine.compareAndPut(key, value, current.get().modRevision());
            if (result.succeeded())
            {
                return result;
            }
        }
    }
}
