package io.ringwatch.server.kv;

import com.google.protobuf.ByteString;
import io.ringwatch.server.api.etcdserverpb.Compare;
import io.ringwatch.server.api.etcdserverpb.DeleteRangeRequest;
import io.ringwatch.server.api.etcdserverpb.PutRequest;
import io.ringwatch.server.api.etcdserverpb.RequestOp;
import io.ringwatch.server.api.etcdserverpb.ResponseOp;
import io.ringwatch.server.api.etcdserverpb.TxnRequest;
import io.ringwatch.server.api.etcdserverpb.TxnResponse;
import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.Txn;
import io.ringwatch.engine.kv.TxnResult;
import io.ringwatch.engine.kv.WriteResult;
import io.ringwatch.server.rpc.EtcdErrors;
import io.ringwatch.server.rpc.KeyRanges;
import io.ringwatch.server.rpc.MemberIdentity;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * etcd's Txn over the engine's transaction: the compares and the chosen branch's puts and deletes
 * apply atomically under one revision. Range operations of the chosen branch read at the
 * transaction's revision, that is after all of its writes (etcd reads each in turn; the two agree
 * unless a range overlaps a write placed after it in the same branch). Lease compares are decided
 * here: every key's lease is 0 while RingWatch has no leases. Not supported, with an UNIMPLEMENTED
 * error: nested transactions, compares over a key range, ignore_value or ignore_lease inside a
 * transaction (the engine's transaction has none of them). Stateless.
 */
final class TxnExecutor
{
    /** etcd's default --max-txn-ops. */
    static final int MAX_TXN_OPS = 128;

    private TxnExecutor()
    {
    }

    /**
     * Checks the transaction and hands it to the engine without waiting.
     *
     * @param engine  the engine.
     * @param member  fills the headers.
     * @param request the transaction.
     * @return etcd's response, once applied: built on the thread that applied it, or, when a branch
     *         reads a range, on the common pool (a range read has no place on the engine's writer
     *         or journal thread).
     */
    static CompletableFuture<TxnResponse> execute(final RingWatch engine, final MemberIdentity member, final TxnRequest request)
    {
        check(request);
        final List<io.ringwatch.engine.kv.Compare> compares = new ArrayList<>(request.getCompareCount());
        boolean leasesHold = true;
        for (final Compare compare : request.getCompareList())
        {
            if (compare.getTarget() == Compare.CompareTarget.LEASE)
            {
                leasesHold &= result(compare.getResult()).holds(Long.compare(0, compare.getLease()));
            }
            else
            {
                compares.add(toEngine(compare));
            }
        }
        final List<Op> then = writes(request.getSuccessList());
        final List<Op> orElse = writes(request.getFailureList());
        // A failed lease compare decides the branch alone: run the else branch unconditionally.
        final CompletableFuture<TxnResult> applied =
            engine.txnAsync(leasesHold ? Txn.of(compares, then, orElse) : Txn.of(List.of(), orElse, List.of()));
        final boolean holdsLeases = leasesHold;
        return reads(request.getSuccessList()) || reads(request.getFailureList()) ?
            applied.thenApplyAsync(result -> response(engine, member, request, holdsLeases, result)) :
            applied.thenApply(result -> response(engine, member, request, holdsLeases, result));
    }

    private static boolean reads(final List<RequestOp> ops)
    {
        for (final RequestOp op : ops)
        {
            if (op.getRequestCase() == RequestOp.RequestCase.REQUEST_RANGE)
            {
                return true;
            }
        }
        return false;
    }

    private static TxnResponse response(
        final RingWatch engine, final MemberIdentity member, final TxnRequest request, final boolean leasesHold,
        final TxnResult result)
    {
        final boolean succeeded = leasesHold && result.succeeded();
        final List<RequestOp> branch = succeeded ? request.getSuccessList() : request.getFailureList();
        final TxnResponse.Builder response = TxnResponse.newBuilder()
            .setHeader(member.header(result.revision()))
            .setSucceeded(succeeded);
        int write = 0;
        for (final RequestOp op : branch)
        {
            switch (op.getRequestCase())
            {
                case REQUEST_RANGE:
                    response.addResponses(ResponseOp.newBuilder()
                        .setResponseRange(RangeQuery.execute(engine, member, op.getRequestRange(), result.revision())));
                    break;
                case REQUEST_PUT:
                    response.addResponses(ResponseOp.newBuilder()
                        .setResponsePut(WriteRequests.putResponse(member, op.getRequestPut(), result.results().get(write++))));
                    break;
                default:
                    final WriteResult deleted = WriteRequests.delete(op.getRequestDeleteRange()) == null ? null :
                        result.results().get(write++);
                    response.addResponses(ResponseOp.newBuilder()
                        .setResponseDeleteRange(WriteRequests.deleteResponse(member, op.getRequestDeleteRange(), deleted, result.revision())));
                    break;
            }
        }
        return response.build();
    }

    private static void check(final TxnRequest request)
    {
        final int ops = Math.max(request.getCompareCount(), Math.max(request.getSuccessCount(), request.getFailureCount()));
        if (ops > MAX_TXN_OPS)
        {
            throw EtcdErrors.tooManyOps();
        }
        for (final Compare compare : request.getCompareList())
        {
            if (compare.getKey().isEmpty())
            {
                throw EtcdErrors.emptyKey();
            }
            if (!compare.getRangeEnd().isEmpty())
            {
                throw EtcdErrors.unsupported("a compare over a key range");
            }
        }
        checkBranch(request.getSuccessList());
        checkBranch(request.getFailureList());
    }

    private static void checkBranch(final List<RequestOp> ops)
    {
        final Set<ByteString> puts = new HashSet<>();
        final List<DeleteRangeRequest> deletes = new ArrayList<>();
        for (final RequestOp op : ops)
        {
            switch (op.getRequestCase())
            {
                case REQUEST_RANGE:
                    RangeQuery.check(op.getRequestRange());
                    break;
                case REQUEST_PUT:
                    final PutRequest put = op.getRequestPut();
                    WriteRequests.checkPut(put);
                    if (put.getIgnoreValue() || put.getIgnoreLease())
                    {
                        throw EtcdErrors.unsupported("ignore_value or ignore_lease inside a transaction");
                    }
                    if (!puts.add(put.getKey()))
                    {
                        throw EtcdErrors.duplicateKey();
                    }
                    break;
                case REQUEST_DELETE_RANGE:
                    WriteRequests.checkDelete(op.getRequestDeleteRange());
                    deletes.add(op.getRequestDeleteRange());
                    break;
                case REQUEST_TXN:
                    throw EtcdErrors.unsupported("a nested transaction");
                default:
                    // etcd answers an empty operation with an empty response; the engine has no such op.
                    throw EtcdErrors.unsupported("an empty transaction operation");
            }
        }
        for (final ByteString key : puts)
        {
            for (final DeleteRangeRequest delete : deletes)
            {
                if (covers(delete, key))
                {
                    throw EtcdErrors.duplicateKey();
                }
            }
        }
    }

    private static boolean covers(final DeleteRangeRequest delete, final ByteString key)
    {
        final ByteString end = delete.getRangeEnd();
        if (end.isEmpty())
        {
            return delete.getKey().equals(key);
        }
        final boolean toInfinity = end.size() == 1 && end.byteAt(0) == 0;
        return KeyRanges.compare(key, delete.getKey()) >= 0 && (toInfinity || KeyRanges.compare(key, end) < 0);
    }

    private static List<Op> writes(final List<RequestOp> ops)
    {
        final List<Op> writes = new ArrayList<>(ops.size());
        for (final RequestOp op : ops)
        {
            if (op.hasRequestPut())
            {
                writes.add(WriteRequests.put(op.getRequestPut()));
            }
            else if (op.hasRequestDeleteRange())
            {
                final Op delete = WriteRequests.delete(op.getRequestDeleteRange());
                if (delete != null)
                {
                    writes.add(delete);
                }
            }
        }
        return writes;
    }

    private static io.ringwatch.engine.kv.Compare toEngine(final Compare compare)
    {
        final byte[] key = compare.getKey().toByteArray();
        final io.ringwatch.engine.kv.Compare.Result result = result(compare.getResult());
        switch (compare.getTarget())
        {
            case VERSION:
                return io.ringwatch.engine.kv.Compare.number(key, io.ringwatch.engine.kv.Compare.Target.VERSION, result, compare.getVersion());
            case CREATE:
                return io.ringwatch.engine.kv.Compare.number(key, io.ringwatch.engine.kv.Compare.Target.CREATE, result, compare.getCreateRevision());
            case MOD:
                return io.ringwatch.engine.kv.Compare.number(key, io.ringwatch.engine.kv.Compare.Target.MOD, result, compare.getModRevision());
            case VALUE:
                return io.ringwatch.engine.kv.Compare.value(key, result, compare.getValue().toByteArray());
            default:
                throw EtcdErrors.unsupported("compare target " + compare.getTarget());
        }
    }

    private static io.ringwatch.engine.kv.Compare.Result result(final Compare.CompareResult result)
    {
        switch (result)
        {
            case EQUAL:
                return io.ringwatch.engine.kv.Compare.Result.EQUAL;
            case NOT_EQUAL:
                return io.ringwatch.engine.kv.Compare.Result.NOT_EQUAL;
            case LESS:
                return io.ringwatch.engine.kv.Compare.Result.LESS;
            case GREATER:
                return io.ringwatch.engine.kv.Compare.Result.GREATER;
            default:
                throw EtcdErrors.unsupported("compare result " + result);
        }
    }
}
