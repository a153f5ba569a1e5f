package io.ringwatch.server.kv;

import com.google.protobuf.ByteString;
import io.ringwatch.server.api.etcdserverpb.DeleteRangeRequest;
import io.ringwatch.server.api.etcdserverpb.RequestOp;
import io.ringwatch.server.api.etcdserverpb.TxnRequest;
import io.ringwatch.server.rpc.EtcdErrors;

import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * etcd 3.5's duplicate-key check of a transaction (v3rpc key.go {@code checkIntervals}), which
 * kvServer.Txn runs after checking the operations and before the request goes to raft, so before
 * the size limit: in one branch, a key put twice, or put inside a range deleted at the same level
 * or by a nested transaction handled before it, is "duplicate key given in txn request"; a key put
 * in both branches of one nested transaction is not. etcd's intervals are kept as their union,
 * which is all its check asks of them (whether a key falls in one); a range end of "\0" (from the
 * key on) makes an empty interval there, as in etcd's adt, so such a delete overlaps no put. The
 * engine checks duplicates again when it applies the transaction. Stateless; allocates a set and a
 * map per branch, O(operations × log) time.
 */
final class TxnIntervals
{
    /** ByteString's unsigned order, with etcd's affine "" (no end) after every key. */
    private static final Comparator<ByteString> ORDER = ByteString.unsignedLexicographicalComparator();

    private TxnIntervals()
    {
    }

    /**
     * @param request a transaction whose operations were checked.
     * @throws io.grpc.StatusRuntimeException etcd's ErrGRPCDuplicateKey.
     */
    static void check(final TxnRequest request)
    {
        check(request.getSuccessList());
        check(request.getFailureList());
    }

    private static Branch check(final List<RequestOp> ops)
    {
        final Branch branch = new Branch();
        for (final RequestOp op : ops)
        {
            if (op.getRequestCase() == RequestOp.RequestCase.REQUEST_DELETE_RANGE)
            {
                final DeleteRangeRequest delete = op.getRequestDeleteRange();
                branch.deleted.add(delete.getKey(), delete.getRangeEnd().isEmpty() ? point(delete.getKey()) : delete.getRangeEnd());
            }
        }
        for (final RequestOp op : ops)
        {
            if (op.getRequestCase() != RequestOp.RequestCase.REQUEST_TXN)
            {
                continue;
            }
            final Branch then = check(op.getRequestTxn().getSuccessList());
            final Branch orElse = check(op.getRequestTxn().getFailureList());
            for (final ByteString key : then.puts)
            {
                if (branch.puts.contains(key) || branch.deleted.covers(key))
                {
                    throw EtcdErrors.duplicateKey();
                }
                branch.puts.add(key);
            }
            for (final ByteString key : orElse.puts)
            {
                // One of then and else runs: a key of both is no duplicate.
                if ((branch.puts.contains(key) && !then.puts.contains(key)) || branch.deleted.covers(key))
                {
                    throw EtcdErrors.duplicateKey();
                }
                branch.puts.add(key);
            }
            branch.deleted.addAll(then.deleted);
            branch.deleted.addAll(orElse.deleted);
        }
        for (final RequestOp op : ops)
        {
            if (op.getRequestCase() != RequestOp.RequestCase.REQUEST_PUT)
            {
                continue;
            }
            final ByteString key = op.getRequestPut().getKey();
            if (branch.puts.contains(key) || branch.deleted.covers(key))
            {
                throw EtcdErrors.duplicateKey();
            }
            branch.puts.add(key);
        }
        return branch;
    }

    /** etcd's affine point: the interval of {@code key} alone, up to the key followed by a 0 byte. */
    private static ByteString point(final ByteString key)
    {
        return key.concat(ByteString.copyFrom(new byte[] {0}));
    }

    /** The keys a branch puts and the ranges it deletes, its nested transactions' included. */
    private static final class Branch
    {
        final Set<ByteString> puts = new HashSet<>();
        final Union deleted = new Union();
    }

    /** A union of half-open key intervals, as disjoint intervals by start; an empty end is no end. */
    private static final class Union
    {
        private final TreeMap<ByteString, ByteString> byStart = new TreeMap<>(ORDER);

        void add(final ByteString start, final ByteString end)
        {
            if (!before(start, end))
            {
                return;
            }
            ByteString from = start;
            ByteString to = end;
            final Map.Entry<ByteString, ByteString> floor = byStart.floorEntry(start);
            if (floor != null && !before(floor.getValue(), start))
            {
                from = floor.getKey();
                to = later(to, floor.getValue());
            }
            for (Map.Entry<ByteString, ByteString> next = byStart.ceilingEntry(from); next != null && !before(to, next.getKey());
                next = byStart.ceilingEntry(from))
            {
                to = later(to, next.getValue());
                byStart.remove(next.getKey());
            }
            byStart.put(from, to);
        }

        void addAll(final Union other)
        {
            for (final Map.Entry<ByteString, ByteString> interval : other.byStart.entrySet())
            {
                add(interval.getKey(), interval.getValue());
            }
        }

        boolean covers(final ByteString key)
        {
            final Map.Entry<ByteString, ByteString> floor = byStart.floorEntry(key);
            return floor != null && before(key, floor.getValue());
        }

        /** Whether {@code a} comes before the end {@code end} (an empty end is after every key). */
        private static boolean before(final ByteString a, final ByteString end)
        {
            return end.isEmpty() ? !a.isEmpty() : !a.isEmpty() && ORDER.compare(a, end) < 0;
        }

        private static ByteString later(final ByteString a, final ByteString b)
        {
            if (a.isEmpty() || b.isEmpty())
            {
                return ByteString.EMPTY;
            }
            return ORDER.compare(a, b) >= 0 ? a : b;
        }
    }
}
