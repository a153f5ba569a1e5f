package io.ringwatch.server.kv;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.kv.TxnResult;
import io.ringwatch.engine.kv.WriteResult;
import io.ringwatch.server.api.etcdserverpb.RangeRequest;
import io.ringwatch.server.api.etcdserverpb.RangeResponse;
import io.ringwatch.server.api.etcdserverpb.RequestOp;
import io.ringwatch.server.api.etcdserverpb.TxnRequest;
import io.ringwatch.server.rpc.KeyRanges;
import io.ringwatch.server.rpc.MemberIdentity;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;

/**
 * The range operations of a transaction's chosen path, read in etcd's order: each sees what the
 * operations before it wrote (nested transactions included) and nothing of what the operations
 * after it write, as etcd's {@code storeTxnWrite.Range} does. The engine applies a transaction's
 * writes at once, so a range is read at the transaction's revision and the writes placed after it
 * are undone from their previous key-values (the transaction asks the engine for the previous
 * key-values of every write when it reads). Its header carries the revision etcd gives it: the
 * transaction's, once an earlier operation changed something, else the one before (a range at a
 * named revision included).
 *
 * <p>A cursor over the path: {@link #wrote()} and {@link #read} are called in the path's order,
 * by the one thread that builds the transaction's response. Allocates the reads.
 */
final class TxnReads
{
    private final RingWatch engine;
    private final MemberIdentity member;
    private final long revision;
    /** The path's writes in order; a delete of no key is not one. */
    private final List<WriteResult> writes = new ArrayList<>();
    /** The key of each put of {@link #writes}, null for a delete. */
    private final List<byte[]> putKeys = new ArrayList<>();
    private int done;

    /**
     * @param engine  reads the ranges.
     * @param member  fills the headers.
     * @param request the transaction.
     * @param result  what the engine did, every write with its previous key-values.
     */
    TxnReads(final RingWatch engine, final MemberIdentity member, final TxnRequest request, final TxnResult result)
    {
        this.engine = engine;
        this.member = member;
        this.revision = result.revision();
        collect(request, result);
    }

    private void collect(final TxnRequest request, final TxnResult result)
    {
        int write = 0;
        int nested = 0;
        for (final RequestOp op : result.succeeded() ? request.getSuccessList() : request.getFailureList())
        {
            switch (op.getRequestCase())
            {
                case REQUEST_PUT:
                    putKeys.add(op.getRequestPut().getKey().toByteArray());
                    writes.add(result.results().get(write++));
                    break;
                case REQUEST_DELETE_RANGE:
                    if (WriteRequests.delete(op.getRequestDeleteRange(), engine.maxKeyBytes()) != null)
                    {
                        putKeys.add(null);
                        writes.add(result.results().get(write++));
                    }
                    break;
                case REQUEST_TXN:
                    collect(op.getRequestTxn(), result.nested().get(nested++));
                    break;
                default:
                    break;
            }
        }
    }

    /**
     * Moves the cursor past the path's next write (a put, or a delete whose range may hold a key).
     */
    void wrote()
    {
        done++;
    }

    /**
     * @param request the path's next range operation.
     * @return etcd's response: the range as the operations before it left it, or, for a request
     *         naming a revision, the range at that revision.
     */
    RangeResponse read(final RangeRequest request)
    {
        final KeyRange range = KeyRanges.of(request.getKey(), request.getRangeEnd());
        final long header = changedBefore(done) || !changedBefore(writes.size()) ? revision : revision - 1;
        if (request.getRevision() > 0)
        {
            // The engine checked the revision with the transaction; the header is the
            // transaction's as for any read here, not the store's when the answer is built.
            return RangeQuery.respond(member, request,
                range == null ? List.of() : engine.range(range, 0, request.getRevision()).kvs(), header);
        }
        return RangeQuery.respond(member, request, range == null ? List.of() : inOrder(range), header);
    }

    private List<KeyValue> inOrder(final KeyRange range)
    {
        final List<KeyValue> after = engine.range(range, 0, revision).kvs();
        if (done == writes.size())
        {
            return after;
        }
        final TreeMap<byte[], KeyValue> kvs = new TreeMap<>(Arrays::compareUnsigned);
        for (final KeyValue kv : after)
        {
            kvs.put(kv.key(), kv);
        }
        for (int i = writes.size() - 1; i >= done; i--)
        {
            final byte[] put = putKeys.get(i);
            if (put == null)
            {
                for (final KeyValue deleted : writes.get(i).prevKvs())
                {
                    restore(kvs, range, deleted.key(), deleted);
                }
            }
            else
            {
                restore(kvs, range, put, writes.get(i).prevKv());
            }
        }
        return new ArrayList<>(kvs.values());
    }

    private static void restore(final TreeMap<byte[], KeyValue> kvs, final KeyRange range, final byte[] key, final KeyValue before)
    {
        if (!range.contains(key))
        {
            return;
        }
        if (before == null)
        {
            kvs.remove(key);
        }
        else
        {
            kvs.put(key, before);
        }
    }

    private boolean changedBefore(final int write)
    {
        for (int i = 0; i < write; i++)
        {
            if (putKeys.get(i) != null || writes.get(i).deleted() > 0)
            {
                return true;
            }
        }
        return false;
    }
}
