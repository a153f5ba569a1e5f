package io.ringwatch.server.kv;

import com.google.protobuf.ByteString;
import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.kv.Compare;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.server.api.etcdserverpb.PutRequest;
import io.ringwatch.server.api.etcdserverpb.RequestOp;
import io.ringwatch.server.api.etcdserverpb.TxnRequest;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The values a transaction's ignore_value puts keep, read before the transaction: every key such a
 * put names, anywhere in the request (both branches, nested transactions), with what the store held
 * for it. The engine's transaction has no ignore_value, so {@link TxnExecutor} puts these values and
 * guards the transaction with {@link #guards()} (each key's mod revision unchanged, or the key still
 * absent), retrying with a fresh read when a guard fails. A put on a key that was absent keeps the
 * key's lease instead ({@code Op.withIgnoreLease}), which the writer refuses with "key not found"
 * only when that put is on the chosen path, as etcd refuses an ignore_value put on a missing key.
 * Not thread-safe; one per attempt; allocates the keys, values and compares.
 */
final class KeptValues
{
    private static final byte[] NO_VALUE = new byte[0];

    private final Map<ByteString, KeyValue> current;
    private final Set<ByteString> keys;

    private KeptValues(final Map<ByteString, KeyValue> current, final Set<ByteString> keys)
    {
        this.current = current;
        this.keys = keys;
    }

    /**
     * @param request the transaction.
     * @return whether any put of the request, at any level, has ignore_value.
     */
    static boolean any(final TxnRequest request)
    {
        return !keys(request, new LinkedHashSet<>()).isEmpty();
    }

    /**
     * Reads, now, every key an ignore_value put of the request names.
     *
     * @param engine  the engine.
     * @param request the transaction.
     * @return the keys and what the store holds for them.
     */
    static KeptValues read(final RingWatch engine, final TxnRequest request)
    {
        final Set<ByteString> keys = keys(request, new LinkedHashSet<>());
        final Map<ByteString, KeyValue> current = new HashMap<>();
        for (final ByteString key : keys)
        {
            engine.get(key.toByteArray()).ifPresent(kv -> current.put(key, kv));
        }
        return new KeptValues(current, keys);
    }

    /**
     * @return one compare per key read: its mod revision is still the one read, or it is still absent.
     */
    List<Compare> guards()
    {
        final List<Compare> guards = new ArrayList<>(keys.size());
        for (final ByteString key : keys)
        {
            final KeyValue kv = current.get(key);
            guards.add(kv == null ?
                Compare.number(key.toByteArray(), Compare.Target.VERSION, Compare.Result.EQUAL, 0) :
                Compare.number(key.toByteArray(), Compare.Target.MOD, Compare.Result.EQUAL, kv.modRevision()));
        }
        return guards;
    }

    /**
     * @param put an ignore_value put of the request.
     * @return the engine's put of the value read, or, for a key that was absent, a put the writer
     *         refuses with "key not found".
     */
    Op put(final PutRequest put)
    {
        final KeyValue kv = current.get(put.getKey());
        if (kv != null)
        {
            return WriteRequests.put(put, kv.value());
        }
        return Op.put(put.getKey().toByteArray(), NO_VALUE).withIgnoreLease();
    }

    private static Set<ByteString> keys(final TxnRequest request, final Set<ByteString> keys)
    {
        keys(request.getSuccessList(), keys);
        keys(request.getFailureList(), keys);
        return keys;
    }

    private static void keys(final List<RequestOp> ops, final Set<ByteString> keys)
    {
        for (final RequestOp op : ops)
        {
            if (op.hasRequestPut() && op.getRequestPut().getIgnoreValue())
            {
                keys.add(op.getRequestPut().getKey());
            }
            else if (op.hasRequestTxn())
            {
                keys(op.getRequestTxn(), keys);
            }
        }
    }
}
