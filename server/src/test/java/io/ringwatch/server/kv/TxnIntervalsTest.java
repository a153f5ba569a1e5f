package io.ringwatch.server.kv;

import com.google.protobuf.ByteString;
import io.grpc.StatusRuntimeException;
import io.ringwatch.server.api.etcdserverpb.DeleteRangeRequest;
import io.ringwatch.server.api.etcdserverpb.PutRequest;
import io.ringwatch.server.api.etcdserverpb.RequestOp;
import io.ringwatch.server.api.etcdserverpb.TxnRequest;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * etcd 3.5's checkIntervals (v3rpc key.go), case by case, its quirks included: the order of
 * nested transactions matters (a nested transaction's deletes count only for those after it and
 * this level's puts), and a delete from a key on (range end "\0") is an empty interval to it.
 */
class TxnIntervalsTest
{
    private static RequestOp put(final String key)
    {
        return RequestOp.newBuilder().setRequestPut(PutRequest.newBuilder().setKey(ByteString.copyFromUtf8(key))).build();
    }

    private static RequestOp delete(final String key, final String end)
    {
        return RequestOp.newBuilder().setRequestDeleteRange(DeleteRangeRequest.newBuilder().setKey(ByteString.copyFromUtf8(key))
            .setRangeEnd(ByteString.copyFromUtf8(end))).build();
    }

    private static RequestOp txn(final RequestOp... then)
    {
        final TxnRequest.Builder nested = TxnRequest.newBuilder();
        for (final RequestOp op : then)
        {
            nested.addSuccess(op);
        }
        return RequestOp.newBuilder().setRequestTxn(nested).build();
    }

    private static void duplicate(final RequestOp... ops)
    {
        final TxnRequest.Builder request = TxnRequest.newBuilder();
        for (final RequestOp op : ops)
        {
            request.addSuccess(op);
        }
        final StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> TxnIntervals.check(request.build()));
        assertEquals("etcdserver: duplicate key given in txn request", e.getStatus().getDescription());
    }

    private static void fine(final RequestOp... ops)
    {
        final TxnRequest.Builder request = TxnRequest.newBuilder();
        for (final RequestOp op : ops)
        {
            request.addSuccess(op);
        }
        assertDoesNotThrow(() -> TxnIntervals.check(request.build()));
    }

    @Test
    void putsAndDeletesOfOneLevel()
    {
        duplicate(put("a"), put("a"));
        duplicate(put("b"), delete("a", "c"));
        duplicate(delete("b", ""), put("b"));
        fine(put("c"), delete("a", "c"));
        fine(delete("a", "c"), delete("b", "d"));
        fine(put("a"), put("b"));
    }

    @Test
    void nestedTransactionsInEtcdsOrder()
    {
        duplicate(txn(put("k")), put("k"));
        duplicate(delete("a", "z"), txn(put("k")));
        duplicate(txn(delete("a", "z")), txn(put("k")));
        fine(txn(put("k")), txn(delete("a", "z")));
        duplicate(txn(delete("a", "z")), put("k"));
        final TxnRequest bothBranches = TxnRequest.newBuilder().addSuccess(put("k")).addFailure(put("k")).build();
        fine(RequestOp.newBuilder().setRequestTxn(bothBranches).build());
        duplicate(put("k"), RequestOp.newBuilder().setRequestTxn(bothBranches).build());
        final RequestOp overlapping = RequestOp.newBuilder().setRequestTxn(TxnRequest.newBuilder()
            .addSuccess(delete("a", "c")).addFailure(delete("b", "d"))).build();
        duplicate(overlapping, put("c"));
        fine(overlapping, put("d"));
    }

    @Test
    void aDeleteFromAKeyOnIsAnEmptyIntervalToEtcd()
    {
        fine(delete("a", "\0"), put("b"));
    }

    @Test
    void unionOfManyIntervals()
    {
        fine(delete("a", "b"), delete("c", "d"), delete("e", "f"), put("b"), put("d"), put("bb"));
        duplicate(delete("a", "b"), delete("c", "d"), delete("b", "c"), put("bb"));
        duplicate(delete("c", "d"), delete("a", "b"), delete("a", "e"), put("d"));
    }
}
