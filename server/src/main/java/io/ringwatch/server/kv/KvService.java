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
import io.ringwatch.engine.kv.Compare;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.Txn;
import io.ringwatch.engine.kv.WriteResult;
import io.ringwatch.server.rpc.EtcdErrors;
import io.ringwatch.server.rpc.MemberIdentity;
import io.ringwatch.server.rpc.Unary;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * etcd's KV service (Range, Put, DeleteRange, Txn, Compact) over an engine's public API. A call
 * starts on the gRPC executor's thread; Put, DeleteRange and Txn hand their write to the engine
 * without waiting and answer from the thread that completes it (the engine's writer, or its
 * journal thread once applied and, in SYNC mode, durable), so a write in flight holds no thread
 * and none of them blocks ({@link io.ringwatch.server.rpc.NonBlockingCalls} runs them on the transport's thread); Range
 * and Compact answer on the calling thread. Errors
 * carry etcd's codes and messages ({@link EtcdErrors}); a refused request changes nothing.
 * Thread-safe; allocates per request.
 */
public final class KvService extends KVGrpc.KVImplBase
{
    private final RingWatch engine;
    private final MemberIdentity member;
    private final RequestLimits limits;

    /**
     * @param engine the engine to serve.
     * @param member fills the response headers.
     * @param limits etcd's request size and transaction limits; a write over them, refused before
     *               the engine sees it, changes nothing.
     */
    public KvService(final RingWatch engine, final MemberIdentity member, final RequestLimits limits)
    {
        this.engine = Objects.requireNonNull(engine, "engine");
        this.member = Objects.requireNonNull(member, "member");
        this.limits = Objects.requireNonNull(limits, "limits");
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
     * etcd's Put, with prev_kv, lease, ignore_value and ignore_lease.
     *
     * @param request  the put.
     * @param response receives the revision and the previous key-value.
     */
    @Override
    public void put(final PutRequest request, final StreamObserver<PutResponse> response)
    {
        Unary.answerLater(response, () ->
        {
            WriteRequests.checkPut(request);
            limits.checkWrite(request);
            WriteRequests.checkKeyFits(request, engine.maxKeyBytes());
            if (request.getIgnoreValue() && request.getLease() != 0)
            {
                // etcd's applier looks a put's lease up before it reads the key, so a missing lease
                // is the error even where the key is missing too (a transaction's check reads the key
                // first: TxnExecutor).
                return engine.leases().timeToLiveAsync(request.getLease(), false)
                    .thenComposeAsync(live -> putOverExisting(request))
                    .thenApply(result -> WriteRequests.putResponse(member, request, result));
            }
            if (request.getIgnoreValue())
            {
                return putOverExisting(request).thenApply(result -> WriteRequests.putResponse(member, request, result));
            }
            return engine.writeAsync(WriteRequests.put(request)).thenApply(result -> WriteRequests.putResponse(member, request, result));
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
        Unary.answerLater(response, () ->
        {
            WriteRequests.checkDelete(request);
            limits.checkWrite(request);
            final Op delete = WriteRequests.delete(request, engine.maxKeyBytes());
            if (delete == null)
            {
                return CompletableFuture.completedFuture(
                    WriteRequests.deleteResponse(member, request, null, engine.currentRevision()));
            }
            return engine.writeAsync(delete).thenApply(result -> WriteRequests.deleteResponse(member, request, result, 0));
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
        Unary.answerLater(response, () -> TxnExecutor.execute(engine, member, limits, request));
    }

    /**
     * etcd's Compact: drops the history before the revision at once (physical or not). As etcd's
     * mvcc {@code updateCompactRev}, whose mark is -1 in a store never compacted: a revision at or
     * below the mark ({@link RingWatch#compactMark()}) is compacted, then one after the current
     * revision is a future one; so Compact(0) is taken once there (compacting nothing, kept across a
     * restart) and refused after that.
     *
     * @param request  the compaction.
     * @param response receives the header.
     */
    @Override
    public void compact(final CompactionRequest request, final StreamObserver<CompactionResponse> response)
    {
        Unary.answer(response, () ->
        {
            if (request.getRevision() <= engine.compactMark())
            {
                throw EtcdErrors.compacted();
            }
            engine.compact(request.getRevision());
            return CompactionResponse.newBuilder().setHeader(member.header(engine.currentRevision())).build();
        });
    }

    /**
     * ignore_value keeps the value the key holds, so the key must exist: read it, then put only if
     * its mod revision did not change meanwhile (a transaction), until that holds. ignore_lease
     * alone is the engine's ({@code Op.withIgnoreLease}).
     */
    private CompletableFuture<WriteResult> putOverExisting(final PutRequest request)
    {
        final byte[] key = request.getKey().toByteArray();
        final Optional<KeyValue> current = engine.get(key);
        if (current.isEmpty())
        {
            throw EtcdErrors.keyNotFound();
        }
        final Op put = WriteRequests.put(request, current.get().value());
        final Txn unchanged = Txn.of(List.of(Compare.number(key, Compare.Target.MOD, Compare.Result.EQUAL,
            current.get().modRevision())), List.of(put), List.of());
        // Retried on the common pool: the completing thread is the engine's writer (or journal),
        // which must never read or publish into its own ring.
        return engine.txnAsync(unchanged).thenComposeAsync(result -> result.succeeded() ?
            CompletableFuture.completedFuture(result.results().get(0)) : putOverExisting(request));
    }
}
