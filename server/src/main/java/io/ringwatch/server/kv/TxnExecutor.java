package io.ringwatch.server.kv;

import io.ringwatch.server.api.etcdserverpb.Compare;
import io.ringwatch.server.api.etcdserverpb.PutRequest;
import io.ringwatch.server.api.etcdserverpb.RequestOp;
import io.ringwatch.server.api.etcdserverpb.ResponseHeader;
import io.ringwatch.server.api.etcdserverpb.ResponseOp;
import io.ringwatch.server.api.etcdserverpb.TxnRequest;
import io.ringwatch.server.api.etcdserverpb.TxnResponse;
import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.Txn;
import io.ringwatch.engine.kv.TxnResult;
import io.ringwatch.engine.kv.WriteResult;
import io.ringwatch.server.rpc.EtcdErrors;
import io.ringwatch.server.rpc.KeyRanges;
import io.ringwatch.server.rpc.MemberIdentity;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * etcd's Txn over the engine's transaction: the compares and the chosen branch's puts, deletes
 * and nested transactions (etcd 3.4+) apply atomically under one revision; every compare on the
 * chosen path, nested ones included, is evaluated against the store before the transaction, as
 * etcd does. Range operations of the chosen branches read in order, each seeing the writes placed
 * before it and none of those after it, as etcd's do ({@link TxnReads}). A failed compare over
 * a range that holds no key (range_end before key) becomes a compare that never holds; every other
 * compare, lease compares and those over a range (range_end, "\0" for every key from key on)
 * included, is the engine's. Puts carry their lease or ignore_lease; a put naming an unknown lease
 * fails the whole transaction with etcd's "requested lease not found". etcd's duplicate-key rule
 * is checked as etcd does, after the operations and before the size ({@link TxnIntervals}), and
 * again by the engine ({@code DuplicateKeyException}). A range anywhere on the chosen path, nested
 * transactions included, that names a revision goes to the engine as a read at that revision
 * ({@link Op#readAt}), whose writer holds it to etcd's {@code checkRange} before writing anything: a
 * revision after the store's or before etcd's first revision refuses the whole transaction with
 * etcd's error and changes nothing. ignore_value puts keep the values read just before
 * ({@link KeptValues}), the transaction guarded against their keys changing meanwhile. Stateless.
 */
final class TxnExecutor
{
    private TxnExecutor()
    {
    }

    /**
     * Checks the transaction and hands it to the engine without waiting.
     *
     * @param engine  the engine.
     * @param member  fills the headers.
     * @param limits  etcd's --max-txn-ops and, for a transaction that writes (etcd serves a
     *                read-only one without a raft request, so without the byte limit),
     *                --max-request-bytes.
     * @param request the transaction.
     * @return etcd's response, once applied: built on the thread that applied it, or, when a branch
     *         reads a range, on the common pool (a range read has no place on the engine's writer
     *         or journal thread); or the engine's refusal (etcd's future-revision or compacted error
     *         once mapped), with nothing written, when the chosen path reads at a revision out of
     *         bounds.
     */
    static CompletableFuture<TxnResponse> execute(final RingWatch engine, final MemberIdentity member, final RequestLimits limits,
        final TxnRequest request)
    {
        check(request, limits.maxTxnOps());
        // etcd's kvServer.Txn order: the operations, duplicate keys, then (in raft) the size.
        TxnIntervals.check(request);
        if (!readOnly(request))
        {
            limits.checkWrite(request);
            checkKeysFit(request.getSuccessList(), engine.maxKeyBytes());
            checkKeysFit(request.getFailureList(), engine.maxKeyBytes());
        }
        final boolean reads = reads(request);
        final CompletableFuture<TxnResult> applied = KeptValues.any(request) ? applyKeepingValues(engine, request, reads) :
            engine.txnAsync(toEngine(request, reads, null, engine.maxKeyBytes()));
        if (!reads)
        {
            return applied.thenApply(result -> response(member, request, result, null, engine.maxKeyBytes()));
        }
        return applied.thenApplyAsync(result -> response(member, request, result,
            new TxnReads(engine, member.insideTxn(), request, result), engine.maxKeyBytes()));
    }

    /**
     * A transaction with ignore_value puts: reads the values they keep, then applies the transaction
     * nested in one whose compares hold only while none of those keys changed, retried (on the common
     * pool, as the completing thread is the engine's writer or journal) until they hold.
     *
     * @return the result of the request's own transaction.
     */
    private static CompletableFuture<TxnResult> applyKeepingValues(final RingWatch engine, final TxnRequest request,
        final boolean reads)
    {
        final KeptValues kept = KeptValues.read(engine, request);
        final Txn guarded = Txn.of(kept.guards(), List.of(Op.txn(toEngine(request, reads, kept, engine.maxKeyBytes()))), List.of());
        return engine.txnAsync(guarded).thenComposeAsync(result -> result.succeeded() ?
            CompletableFuture.completedFuture(result.nested().get(0)) : applyKeepingValues(engine, request, reads));
    }

    /**
     * @param reads whether the transaction reads a range: then every write asks for its previous
     *              key-values (what {@link TxnReads} undoes a write from), and every range that
     *              names a revision goes to the engine as a read at it.
     * @param kept  the values ignore_value puts keep; null when the request has none.
     * @param maxKeyBytes the engine's longest key: a key or bound longer than that holds no key.
     */
    private static Txn toEngine(final TxnRequest request, final boolean reads, final KeptValues kept, final int maxKeyBytes)
    {
        return Txn.of(compares(request, maxKeyBytes), ops(request.getSuccessList(), reads, kept, maxKeyBytes),
            ops(request.getFailureList(), reads, kept, maxKeyBytes));
    }

    private static List<io.ringwatch.engine.kv.Compare> compares(final TxnRequest request, final int maxKeyBytes)
    {
        final List<io.ringwatch.engine.kv.Compare> compares = new ArrayList<>(request.getCompareCount());
        for (final Compare compare : request.getCompareList())
        {
            final io.ringwatch.engine.kv.Compare condition = condition(compare, maxKeyBytes);
            if (condition != null)
            {
                compares.add(condition);
            }
        }
        return compares;
    }

    /**
     * @return the engine's condition for an etcd compare; null for one that holds whatever the
     *         store holds. A compare over a range that holds no key, or on a key longer than any the
     *         engine holds (as one absent key), is decided here; one that fails becomes a compare
     *         that never holds (no create revision is below 0), so the writer still picks the branch.
     */
    private static io.ringwatch.engine.kv.Compare condition(final Compare compare, final int maxKeyBytes)
    {
        if (compare.getTarget() != Compare.CompareTarget.VALUE && compare.getTarget() != Compare.CompareTarget.LEASE &&
            numberOperand(compare) < 0)
        {
            // etcd compares signed numbers; every version and revision here is at least 0 (a
            // missing key's too), so one against a negative number is decided by its operator
            // alone, for a single key, every key of a range and none. A lease id may be negative
            // (etcd grants one), so the engine compares it.
            final io.ringwatch.engine.kv.Compare.Result result = result(compare.getResult());
            return result == io.ringwatch.engine.kv.Compare.Result.NOT_EQUAL || result == io.ringwatch.engine.kv.Compare.Result.GREATER ?
                null : neverHolds();
        }
        final io.ringwatch.engine.kv.Compare single = toEngine(compare);
        final KeyRange range = KeyRanges.of(compare.getKey(), compare.getRangeEnd(), maxKeyBytes);
        if (range == null)
        {
            return single.test(false, 0, 0, 0, 0, null) ? null : neverHolds();
        }
        return compare.getRangeEnd().isEmpty() ? single : single.over(range);
    }

    /**
     * A condition no key meets (no create revision is below 0), so the writer still picks the
     * branch; on the smallest key, which the engine always takes.
     */
    private static io.ringwatch.engine.kv.Compare neverHolds()
    {
        return io.ringwatch.engine.kv.Compare.number(new byte[] {0},
            io.ringwatch.engine.kv.Compare.Target.CREATE, io.ringwatch.engine.kv.Compare.Result.LESS, 0);
    }

    private static long numberOperand(final Compare compare)
    {
        switch (compare.getTarget())
        {
            case VERSION:
                return compare.getVersion();
            case CREATE:
                return compare.getCreateRevision();
            case MOD:
                return compare.getModRevision();
            default:
                return 0;
        }
    }

    private static boolean reads(final TxnRequest request)
    {
        return reads(request.getSuccessList()) || reads(request.getFailureList());
    }

    private static boolean reads(final List<RequestOp> ops)
    {
        for (final RequestOp op : ops)
        {
            if (op.getRequestCase() == RequestOp.RequestCase.REQUEST_RANGE ||
                (op.getRequestCase() == RequestOp.RequestCase.REQUEST_TXN && reads(op.getRequestTxn())))
            {
                return true;
            }
        }
        return false;
    }

    /**
     * @param reads       the path's range reads, null when it has none.
     * @param maxKeyBytes the engine's longest key, which decides which deletes the engine was given.
     */
    private static TxnResponse response(
        final MemberIdentity member, final TxnRequest request, final TxnResult result, final TxnReads reads, final int maxKeyBytes)
    {
        return response(member.header(result.revision()), member.insideTxn(), request, result, reads, maxKeyBytes,
            new Changes(changes(request, result, maxKeyBytes)));
    }

    /**
     * Whether a transaction's chosen path changed anything so far, in the path's order, for the
     * header revision etcd gives a delete inside it (mvcc's {@code storeTxnWrite.DeleteRange}: the
     * revision before the transaction while nothing changed, the transaction's once something
     * did). One per response being built.
     */
    private static final class Changes
    {
        /** Whether the path changes anything at all (else the transaction's revision is the current one). */
        final boolean any;
        boolean sofar;

        Changes(final boolean any)
        {
            this.any = any;
        }

        long deleteRevision(final long revision)
        {
            return sofar || !any ? revision : revision - 1;
        }
    }

    /** @return whether the chosen path, nested transactions included, put a key or deleted one. */
    private static boolean changes(final TxnRequest request, final TxnResult result, final int maxKeyBytes)
    {
        int write = 0;
        int nested = 0;
        for (final RequestOp op : result.succeeded() ? request.getSuccessList() : request.getFailureList())
        {
            switch (op.getRequestCase())
            {
                case REQUEST_PUT:
                    return true;
                case REQUEST_DELETE_RANGE:
                    if (WriteRequests.delete(op.getRequestDeleteRange(), maxKeyBytes) != null && result.results().get(write++).deleted() > 0)
                    {
                        return true;
                    }
                    break;
                case REQUEST_TXN:
                    if (changes(op.getRequestTxn(), result.nested().get(nested++), maxKeyBytes))
                    {
                        return true;
                    }
                    break;
                default:
                    break;
            }
        }
        return false;
    }

    /**
     * @param header the transaction's header: the member's for the request's, an empty one for a
     *               nested transaction (etcd's newTxnResp; only the outermost is filled).
     * @param member heads the answers inside the transaction ({@link MemberIdentity#insideTxn()}).
     */
    private static TxnResponse response(final ResponseHeader header, final MemberIdentity member, final TxnRequest request,
        final TxnResult result, final TxnReads reads, final int maxKeyBytes, final Changes changes)
    {
        final List<RequestOp> branch = result.succeeded() ? request.getSuccessList() : request.getFailureList();
        final TxnResponse.Builder response = TxnResponse.newBuilder()
            .setHeader(header)
            .setSucceeded(result.succeeded());
        int write = 0;
        int nested = 0;
        for (final RequestOp op : branch)
        {
            switch (op.getRequestCase())
            {
                case REQUEST_RANGE:
                    response.addResponses(ResponseOp.newBuilder()
                        .setResponseRange(reads.read(op.getRequestRange())));
                    break;
                case REQUEST_PUT:
                    wrote(reads);
                    changes.sofar = true;
                    response.addResponses(ResponseOp.newBuilder()
                        .setResponsePut(WriteRequests.putResponse(member, op.getRequestPut(), result.results().get(write++))));
                    break;
                case REQUEST_TXN:
                    response.addResponses(ResponseOp.newBuilder()
                        .setResponseTxn(response(ResponseHeader.getDefaultInstance(), member, op.getRequestTxn(),
                            result.nested().get(nested++), reads, maxKeyBytes, changes)));
                    break;
                default:
                    final WriteResult deleted = WriteRequests.delete(op.getRequestDeleteRange(), maxKeyBytes) == null ? null :
                        result.results().get(write++);
                    if (deleted != null)
                    {
                        wrote(reads);
                        changes.sofar |= deleted.deleted() > 0;
                    }
                    response.addResponses(ResponseOp.newBuilder().setResponseDeleteRange(WriteRequests.deleteResponse(member,
                        op.getRequestDeleteRange(), deleted != null && deleted.deleted() > 0 ? deleted : null,
                        changes.deleteRevision(result.revision()))));
                    break;
            }
        }
        return response.build();
    }

    private static void wrote(final TxnReads reads)
    {
        if (reads != null)
        {
            reads.wrote();
        }
    }

    /**
     * etcd's isTxnReadonly: every operation of both branches is a range (a nested transaction is
     * not).
     */
    private static boolean readOnly(final TxnRequest request)
    {
        for (final RequestOp op : request.getSuccessList())
        {
            if (!op.hasRequestRange())
            {
                return false;
            }
        }
        for (final RequestOp op : request.getFailureList())
        {
            if (!op.hasRequestRange())
            {
                return false;
            }
        }
        return true;
    }

    /**
     * etcd's checkTxnRequest: the largest of the compares, the then ops and the else ops counts
     * against {@code maxOps}, and a nested transaction gets what its parent left of it (etcd
     * passes {@code maxTxnOps - opc} down), so nesting does not multiply the limit.
     */
    private static void check(final TxnRequest request, final int maxOps)
    {
        final int ops = Math.max(request.getCompareCount(), Math.max(request.getSuccessCount(), request.getFailureCount()));
        if (ops > maxOps)
        {
            throw EtcdErrors.tooManyOps();
        }
        for (final Compare compare : request.getCompareList())
        {
            if (compare.getKey().isEmpty())
            {
                throw EtcdErrors.emptyKey();
            }
        }
        checkBranch(request.getSuccessList(), maxOps - ops);
        checkBranch(request.getFailureList(), maxOps - ops);
    }

    /** Every put of a branch, nested ones included, whichever branch runs: as etcd's size limit. */
    private static void checkKeysFit(final List<RequestOp> ops, final int maxKeyBytes)
    {
        for (final RequestOp op : ops)
        {
            if (op.getRequestCase() == RequestOp.RequestCase.REQUEST_PUT)
            {
                WriteRequests.checkKeyFits(op.getRequestPut(), maxKeyBytes);
            }
            else if (op.getRequestCase() == RequestOp.RequestCase.REQUEST_TXN)
            {
                checkKeysFit(op.getRequestTxn().getSuccessList(), maxKeyBytes);
                checkKeysFit(op.getRequestTxn().getFailureList(), maxKeyBytes);
            }
        }
    }

    private static void checkBranch(final List<RequestOp> ops, final int nestedMaxOps)
    {
        for (final RequestOp op : ops)
        {
            switch (op.getRequestCase())
            {
                case REQUEST_RANGE:
                    RangeQuery.check(op.getRequestRange());
                    break;
                case REQUEST_PUT:
                    WriteRequests.checkPut(op.getRequestPut());
                    break;
                case REQUEST_DELETE_RANGE:
                    WriteRequests.checkDelete(op.getRequestDeleteRange());
                    break;
                case REQUEST_TXN:
                    check(op.getRequestTxn(), nestedMaxOps);
                    break;
                default:
                    // etcd's checkRequestOp refuses an empty operation so (api/v3rpc/key.go).
                    throw EtcdErrors.keyNotFound();
            }
        }
    }

    /**
     * @return the engine's operations for a branch: its writes, its nested transactions, and a read
     *         for each range that names a revision (one at 0 reads the current revision, which is
     *         never refused).
     */
    private static List<Op> ops(final List<RequestOp> ops, final boolean reads, final KeptValues kept, final int maxKeyBytes)
    {
        final List<Op> engineOps = new ArrayList<>(ops.size());
        for (final RequestOp op : ops)
        {
            if (op.hasRequestPut())
            {
                final PutRequest request = op.getRequestPut();
                final Op put = request.getIgnoreValue() ? kept.put(request) : WriteRequests.put(request);
                engineOps.add(reads ? put.withPrevKv() : put);
            }
            else if (op.hasRequestDeleteRange())
            {
                final Op delete = WriteRequests.delete(op.getRequestDeleteRange(), maxKeyBytes);
                if (delete != null)
                {
                    engineOps.add(reads ? delete.withPrevKv() : delete);
                }
            }
            else if (op.hasRequestTxn())
            {
                engineOps.add(Op.txn(toEngine(op.getRequestTxn(), reads, kept, maxKeyBytes)));
            }
            else if (op.hasRequestRange() && op.getRequestRange().getRevision() != 0)
            {
                engineOps.add(Op.readAt(op.getRequestRange().getRevision()));
            }
        }
        return engineOps;
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
            case LEASE:
                return io.ringwatch.engine.kv.Compare.number(key, io.ringwatch.engine.kv.Compare.Target.LEASE, result, compare.getLease());
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
