package io.ringwatch.server;

import com.google.protobuf.ByteString;
import io.ringwatch.server.api.etcdserverpb.DeleteRangeRequest;
import io.ringwatch.server.api.etcdserverpb.KVGrpc;
import io.ringwatch.server.api.etcdserverpb.PutRequest;
import io.ringwatch.server.api.etcdserverpb.RangeRequest;
import io.ringwatch.server.api.etcdserverpb.RequestOp;
import io.ringwatch.server.api.etcdserverpb.ResponseHeader;
import io.ringwatch.server.api.etcdserverpb.TxnRequest;
import io.ringwatch.server.api.etcdserverpb.TxnResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The header revisions etcd 3.4 gives the answers inside a transaction (mvcc's storeTxnWrite: a
 * delete answers the revision before the transaction until an operation before it, or itself,
 * changed something, then the transaction's; every answer inside carries the revision only, a
 * nested transaction's an empty header: etcd's applier fills only the outermost), found by the
 * differential test against etcd.
 */
class TxnHeaderRevisionTest
{
    @RegisterExtension
    static final ServerFixture fixture = new ServerFixture();

    @Test
    void aDeleteOfNothingBeforeAnyChangeAnswersTheRevisionBeforeTheTransaction()
    {
        final KVGrpc.KVBlockingStub kv = KVGrpc.newBlockingStub(fixture.channel);
        final long before = kv.put(PutRequest.newBuilder().setKey(utf8("th/x")).setValue(utf8("1")).build()).getHeader().getRevision();

        final TxnResponse txn = kv.txn(TxnRequest.newBuilder()
            .addSuccess(delete("th/missing"))
            .addSuccess(delete("th/x"))
            .addSuccess(delete("th/missing-too"))
            .build());

        assertEquals(before + 1, txn.getHeader().getRevision());
        assertEquals(before, txn.getResponses(0).getResponseDeleteRange().getHeader().getRevision());
        assertEquals(before + 1, txn.getResponses(1).getResponseDeleteRange().getHeader().getRevision());
        assertEquals(before + 1, txn.getResponses(2).getResponseDeleteRange().getHeader().getRevision());
    }

    @Test
    void aTransactionThatChangesNothingAnswersTheCurrentRevisionEverywhere()
    {
        final KVGrpc.KVBlockingStub kv = KVGrpc.newBlockingStub(fixture.channel);
        final long current = kv.put(PutRequest.newBuilder().setKey(utf8("th/y")).setValue(utf8("1")).build()).getHeader().getRevision();

        final TxnResponse txn = kv.txn(TxnRequest.newBuilder().addSuccess(delete("th/none")).build());

        assertEquals(current, txn.getHeader().getRevision());
        assertEquals(current, txn.getResponses(0).getResponseDeleteRange().getHeader().getRevision());
    }

    @Test
    void aRangeAtARevisionBeforeAnyChangeAnswersTheRevisionBeforeTheTransaction()
    {
        final KVGrpc.KVBlockingStub kv = KVGrpc.newBlockingStub(fixture.channel);
        final long before = kv.put(PutRequest.newBuilder().setKey(utf8("th/r")).setValue(utf8("1")).build()).getHeader().getRevision();

        final TxnResponse txn = kv.txn(TxnRequest.newBuilder()
            .addSuccess(RequestOp.newBuilder().setRequestRange(RangeRequest.newBuilder().setKey(utf8("th/r")).setRevision(before)))
            .addSuccess(RequestOp.newBuilder().setRequestPut(PutRequest.newBuilder().setKey(utf8("th/r2"))))
            .addSuccess(RequestOp.newBuilder().setRequestRange(RangeRequest.newBuilder().setKey(utf8("th/r")).setRevision(before)))
            .build());

        assertEquals(before + 1, txn.getHeader().getRevision());
        assertEquals(before, txn.getResponses(0).getResponseRange().getHeader().getRevision());
        assertEquals(1, txn.getResponses(0).getResponseRange().getCount());
        assertEquals(before + 1, txn.getResponses(2).getResponseRange().getHeader().getRevision());
    }

    @Test
    void answersInsideATransactionCarryTheRevisionOnlyAndANestedTransactionsHeaderIsEmpty()
    {
        final KVGrpc.KVBlockingStub kv = KVGrpc.newBlockingStub(fixture.channel);
        final RequestOp put = RequestOp.newBuilder().setRequestPut(PutRequest.newBuilder().setKey(utf8("th/z")).setValue(utf8("1"))).build();
        final RequestOp get = RequestOp.newBuilder().setRequestRange(RangeRequest.newBuilder().setKey(utf8("th/z"))).build();

        final TxnResponse txn = kv.txn(TxnRequest.newBuilder().addSuccess(put).addSuccess(get)
            .addSuccess(RequestOp.newBuilder().setRequestTxn(TxnRequest.newBuilder().addSuccess(delete("th/none")).addSuccess(get))).build());

        final long revision = txn.getHeader().getRevision();
        assertEquals(fixture.server.member().memberId(), txn.getHeader().getMemberId());
        assertEquals(ResponseHeader.newBuilder().setRevision(revision).build(), txn.getResponses(0).getResponsePut().getHeader());
        assertEquals(ResponseHeader.newBuilder().setRevision(revision).build(), txn.getResponses(1).getResponseRange().getHeader());
        final TxnResponse nested = txn.getResponses(2).getResponseTxn();
        assertTrue(nested.hasHeader());
        assertEquals(ResponseHeader.getDefaultInstance(), nested.getHeader());
        assertEquals(ResponseHeader.newBuilder().setRevision(revision).build(), nested.getResponses(0).getResponseDeleteRange().getHeader());
        assertEquals(ResponseHeader.newBuilder().setRevision(revision).build(), nested.getResponses(1).getResponseRange().getHeader());
    }

    private static RequestOp delete(final String key)
    {
        return RequestOp.newBuilder().setRequestDeleteRange(DeleteRangeRequest.newBuilder().setKey(utf8(key))).build();
    }

    private static ByteString utf8(final String text)
    {
        return ByteString.copyFromUtf8(text);
    }
}
