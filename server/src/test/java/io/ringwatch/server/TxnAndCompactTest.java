package io.ringwatch.server;

import com.google.protobuf.ByteString;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.ringwatch.server.api.etcdserverpb.Compare;
import io.ringwatch.server.api.etcdserverpb.KVGrpc;
import io.ringwatch.server.api.etcdserverpb.PutRequest;
import io.ringwatch.server.api.etcdserverpb.RangeRequest;
import io.ringwatch.server.api.etcdserverpb.RequestOp;
import io.ringwatch.server.api.etcdserverpb.TxnRequest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;

import static io.ringwatch.server.ServerFixture.bytes;
import static io.ringwatch.server.ServerFixture.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * etcd's Txn (compares on every target with every operator, then/else, range ops, errors) and
 * Compact, through jetcd and, for what jetcd cannot send, the raw stub.
 */
class TxnAndCompactTest
{
    @RegisterExtension
    static final ServerFixture fixture = new ServerFixture();
    private static KV kv;
    private static KVGrpc.KVBlockingStub stub;

    @BeforeAll
    static void start()
    {
        kv = fixture.client.getKVClient();
        stub = KVGrpc.newBlockingStub(fixture.channel);
    }

    @Test
    void everyTargetAndOperatorDecidesTheBranch() throws Exception
    {
        final long create = kv.put(bytes("t/k"), bytes("b")).get().getHeader().getRevision();
        final long mod = kv.put(bytes("t/k"), bytes("b")).get().getHeader().getRevision();
        // version 2, create `create`, mod `mod`, value "b"
        assertTrue(holds(new Cmp(bytes("t/k"), Cmp.Op.EQUAL, CmpTarget.value(bytes("b")))));
        assertTrue(holds(new Cmp(bytes("t/k"), Cmp.Op.GREATER, CmpTarget.value(bytes("a")))));
        assertTrue(holds(new Cmp(bytes("t/k"), Cmp.Op.LESS, CmpTarget.value(bytes("c")))));
        assertTrue(holds(new Cmp(bytes("t/k"), Cmp.Op.NOT_EQUAL, CmpTarget.value(bytes("x")))));
        assertFalse(holds(new Cmp(bytes("t/k"), Cmp.Op.EQUAL, CmpTarget.value(bytes("x")))));
        assertTrue(holds(new Cmp(bytes("t/k"), Cmp.Op.EQUAL, CmpTarget.version(2))));
        assertTrue(holds(new Cmp(bytes("t/k"), Cmp.Op.GREATER, CmpTarget.version(1))));
        assertFalse(holds(new Cmp(bytes("t/k"), Cmp.Op.LESS, CmpTarget.version(2))));
        assertTrue(holds(new Cmp(bytes("t/k"), Cmp.Op.EQUAL, CmpTarget.createRevision(create))));
        assertTrue(holds(new Cmp(bytes("t/k"), Cmp.Op.NOT_EQUAL, CmpTarget.createRevision(mod))));
        assertTrue(holds(new Cmp(bytes("t/k"), Cmp.Op.EQUAL, CmpTarget.modRevision(mod))));
        assertTrue(holds(new Cmp(bytes("t/k"), Cmp.Op.LESS, CmpTarget.modRevision(mod + 1))));
        assertFalse(holds(new Cmp(bytes("t/k"), Cmp.Op.GREATER, CmpTarget.modRevision(mod))));
        // An absent key: version/create/mod compare as 0, a value compare fails.
        assertTrue(holds(new Cmp(bytes("t/absent"), Cmp.Op.EQUAL, CmpTarget.version(0))));
        assertTrue(holds(new Cmp(bytes("t/absent"), Cmp.Op.EQUAL, CmpTarget.createRevision(0))));
        assertFalse(holds(new Cmp(bytes("t/absent"), Cmp.Op.NOT_EQUAL, CmpTarget.value(bytes("b")))));
    }

    @Test
    void thenAndElseApplyAtomicallyWithTheirResponses() throws Exception
    {
        kv.put(bytes("tt/a"), bytes("1")).get();
        final TxnResponse then = kv.txn()
            .If(new Cmp(bytes("tt/a"), Cmp.Op.EQUAL, CmpTarget.value(bytes("1"))))
            .Then(Op.put(bytes("tt/b"), bytes("2"), PutOption.DEFAULT),
                Op.put(bytes("tt/a"), bytes("3"), PutOption.builder().withPrevKV().build()),
                Op.get(bytes("tt/"), GetOption.builder().isPrefix(true).build()))
            .Else(Op.delete(bytes("tt/a"), DeleteOption.DEFAULT))
            .commit().get();
        assertTrue(then.isSucceeded());
        assertEquals("1", text(then.getPutResponses().get(1).getPrevKv().getValue()));
        assertEquals(2, then.getGetResponses().get(0).getKvs().size());
        assertEquals(then.getHeader().getRevision(), kv.get(bytes("tt/b")).get().getKvs().get(0).getModRevision());
        assertEquals(then.getHeader().getRevision(), kv.get(bytes("tt/a")).get().getKvs().get(0).getModRevision(),
            "both puts share one revision");

        final TxnResponse orElse = kv.txn()
            .If(new Cmp(bytes("tt/a"), Cmp.Op.EQUAL, CmpTarget.value(bytes("1"))))
            .Then(Op.put(bytes("tt/c"), bytes("x"), PutOption.DEFAULT))
            .Else(Op.delete(bytes("tt/"), DeleteOption.builder().isPrefix(true).withPrevKV(true).build()))
            .commit().get();
        assertFalse(orElse.isSucceeded());
        assertEquals(2, orElse.getDeleteResponses().get(0).getDeleted());
        assertEquals(0, kv.get(bytes("tt/"), GetOption.builder().isPrefix(true).build()).get().getCount());
    }

    @Test
    void leaseComparesAgainstLeaseZero()
    {
        kv.put(bytes("tl/a"), bytes("1")).join();
        final TxnRequest.Builder txn = TxnRequest.newBuilder()
            .addSuccess(put("tl/then"))
            .addFailure(put("tl/else"));
        final Compare leaseZero = Compare.newBuilder().setKey(ByteString.copyFromUtf8("tl/a"))
            .setTarget(Compare.CompareTarget.LEASE).setResult(Compare.CompareResult.EQUAL).setLease(0).build();
        assertTrue(stub.txn(txn.clone().addCompare(leaseZero).build()).getSucceeded());
        final Compare leaseSeven = leaseZero.toBuilder().setLease(7).build();
        assertFalse(stub.txn(txn.clone().addCompare(leaseSeven).build()).getSucceeded());
        assertEquals(1, kv.get(bytes("tl/else")).join().getCount());
    }

    @Test
    void duplicateKeysAndTooManyOpsAreRefusedAndChangeNothing()
    {
        final long before = fixture.engine.currentRevision();
        final StatusRuntimeException duplicate = assertThrows(StatusRuntimeException.class,
            () -> stub.txn(TxnRequest.newBuilder().addSuccess(put("td/a")).addSuccess(put("td/a")).build()));
        assertEquals(Status.Code.INVALID_ARGUMENT, duplicate.getStatus().getCode());
        assertEquals("etcdserver: duplicate key given in txn request", duplicate.getStatus().getDescription());
        final TxnRequest.Builder many = TxnRequest.newBuilder();
        for (int i = 0; i < 129; i++)
        {
            many.addSuccess(put("td/" + i));
        }
        final StatusRuntimeException tooMany = assertThrows(StatusRuntimeException.class, () -> stub.txn(many.build()));
        assertEquals("etcdserver: too many operations in txn request", tooMany.getStatus().getDescription());
        assertEquals(before, fixture.engine.currentRevision());
    }

    @Test
    void aNestedTransactionAppliesItsChosenBranchUnderTheOuterRevisionAndAnswersNested()
    {
        stub.put(PutRequest.newBuilder().setKey(ByteString.copyFromUtf8("tn/flag")).setValue(ByteString.copyFromUtf8("on")).build());
        final Compare flagOn = Compare.newBuilder().setKey(ByteString.copyFromUtf8("tn/flag")).setTarget(Compare.CompareTarget.VALUE)
            .setResult(Compare.CompareResult.EQUAL).setValue(ByteString.copyFromUtf8("on")).build();
        final Compare leaseSeven = Compare.newBuilder().setKey(ByteString.copyFromUtf8("tn/flag"))
            .setTarget(Compare.CompareTarget.LEASE).setResult(Compare.CompareResult.EQUAL).setLease(7).build();
        final RequestOp holds = RequestOp.newBuilder().setRequestTxn(TxnRequest.newBuilder().addCompare(flagOn)
            .addSuccess(put("tn/then")).addFailure(put("tn/else"))).build();
        final RequestOp leaseFails = RequestOp.newBuilder().setRequestTxn(TxnRequest.newBuilder().addCompare(leaseSeven)
            .addSuccess(put("tn/lease-then")).addFailure(put("tn/lease-else"))
            .addFailure(RequestOp.newBuilder().setRequestRange(RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8("tn/then"))))).build();

        final io.ringwatch.server.api.etcdserverpb.TxnResponse response = stub.txn(TxnRequest.newBuilder().addSuccess(put("tn/outer")).addSuccess(holds)
            .addSuccess(leaseFails).build());

        assertTrue(response.getSucceeded());
        final long revision = response.getHeader().getRevision();
        final io.ringwatch.server.api.etcdserverpb.TxnResponse first = response.getResponses(1).getResponseTxn();
        assertTrue(first.getSucceeded());
        assertEquals(revision, first.getResponses(0).getResponsePut().getHeader().getRevision());
        final io.ringwatch.server.api.etcdserverpb.TxnResponse second = response.getResponses(2).getResponseTxn();
        assertFalse(second.getSucceeded());
        assertEquals(1, second.getResponses(1).getResponseRange().getCount(), "the nested range reads the transaction's writes");
        for (final String key : List.of("tn/outer", "tn/then", "tn/lease-else"))
        {
            assertEquals(revision, kv.get(bytes(key)).join().getKvs().get(0).getModRevision(), key);
        }
        assertEquals(0, kv.get(bytes("tn/else")).join().getCount());
        assertEquals(0, kv.get(bytes("tn/lease-then")).join().getCount());
    }

    @Test
    void rangesInATransactionSeeTheWritesBeforeThemAndNotThoseAfter() throws Exception
    {
        final long before = kv.put(bytes("ti/a"), bytes("1")).get().getHeader().getRevision();
        kv.put(bytes("ti/b"), bytes("1")).get();
        final GetOption prefix = GetOption.builder().isPrefix(true).build();

        final TxnResponse response = kv.txn().Then(
            Op.get(bytes("ti/"), prefix),
            Op.put(bytes("ti/a"), bytes("2"), PutOption.DEFAULT),
            Op.get(bytes("ti/a"), GetOption.DEFAULT),
            Op.delete(bytes("ti/b"), DeleteOption.DEFAULT),
            Op.get(bytes("ti/b"), GetOption.DEFAULT),
            Op.put(bytes("ti/c"), bytes("3"), PutOption.DEFAULT),
            Op.get(bytes("ti/"), prefix)).commit().get();

        // As etcd 3.4 answers the same transaction (checked against it with etcdctl txn -w json).
        final long revision = response.getHeader().getRevision();
        final List<io.etcd.jetcd.kv.GetResponse> gets = response.getGetResponses();
        assertEquals(List.of("ti/a=1@1", "ti/b=1@1"), kvs(gets.get(0)), "before any write");
        assertEquals(revision - 1, gets.get(0).getHeader().getRevision(), "no write before it: the revision before");
        assertEquals(List.of("ti/a=2@2"), kvs(gets.get(1)), "after the put");
        assertEquals(revision, gets.get(1).getHeader().getRevision());
        assertEquals(before, gets.get(1).getKvs().get(0).getCreateRevision());
        assertEquals(revision, gets.get(1).getKvs().get(0).getModRevision());
        assertEquals(0, gets.get(2).getCount(), "after the delete");
        assertEquals(List.of("ti/a=2@2", "ti/c=3@1"), kvs(gets.get(3)), "after every write");
    }

    @Test
    void rangesInNestedTransactionsReadInOrderWithCountAndKeysOnly()
    {
        stub.put(PutRequest.newBuilder().setKey(ByteString.copyFromUtf8("to/a")).setValue(ByteString.copyFromUtf8("1")).build());
        final RangeRequest.Builder all = RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8("to/"))
            .setRangeEnd(ByteString.copyFromUtf8("to0"));
        final RequestOp nested = RequestOp.newBuilder().setRequestTxn(TxnRequest.newBuilder()
            .addSuccess(put("to/x"))
            .addSuccess(range(all.clone().setKeysOnly(true)))).build();

        final io.ringwatch.server.api.etcdserverpb.TxnResponse response = stub.txn(TxnRequest.newBuilder()
            .addSuccess(range(all.clone().setCountOnly(true)))
            .addSuccess(nested)
            .addSuccess(RequestOp.newBuilder().setRequestDeleteRange(
                io.ringwatch.server.api.etcdserverpb.DeleteRangeRequest.newBuilder().setKey(ByteString.copyFromUtf8("to/a"))))
            .addSuccess(range(all.clone().setLimit(1)))
            .addSuccess(put("to/y"))
            .build());

        final long revision = response.getHeader().getRevision();
        final io.ringwatch.server.api.etcdserverpb.RangeResponse first = response.getResponses(0).getResponseRange();
        assertEquals(1, first.getCount());
        assertEquals(0, first.getKvsCount(), "count_only");
        assertEquals(revision - 1, first.getHeader().getRevision());
        final io.ringwatch.server.api.etcdserverpb.RangeResponse inner = response.getResponses(1).getResponseTxn()
            .getResponses(1).getResponseRange();
        assertEquals(2, inner.getCount(), "to/a and the nested put's to/x");
        assertEquals("to/x", inner.getKvs(1).getKey().toStringUtf8());
        assertTrue(inner.getKvs(1).getValue().isEmpty(), "keys_only");
        assertEquals(revision, inner.getHeader().getRevision());
        final io.ringwatch.server.api.etcdserverpb.RangeResponse last = response.getResponses(3).getResponseRange();
        assertEquals(1, last.getCount(), "to/a deleted, to/y not yet put");
        assertEquals("to/x", last.getKvs(0).getKey().toStringUtf8());
        assertFalse(last.getMore());
        assertEquals(2, stub.range(all.build()).getCount(), "to/x and to/y");
    }

    @Test
    void aCompareOverAKeyRangeHoldsWhenEveryKeyOfItPassesAndOverNoKeyAsForAnAbsentKey()
    {
        for (final String key : List.of("tr/a", "tr/b", "tr/c"))
        {
            stub.put(PutRequest.newBuilder().setKey(ByteString.copyFromUtf8(key)).setValue(ByteString.copyFromUtf8("1")).build());
        }
        final Compare.Builder valueOne = Compare.newBuilder().setKey(ByteString.copyFromUtf8("tr/a"))
            .setTarget(Compare.CompareTarget.VALUE).setResult(Compare.CompareResult.EQUAL).setValue(ByteString.copyFromUtf8("1"));

        assertTrue(rangeHolds(valueOne.clone().setRangeEnd(ByteString.copyFromUtf8("tr/d"))));
        stub.put(PutRequest.newBuilder().setKey(ByteString.copyFromUtf8("tr/c")).setValue(ByteString.copyFromUtf8("2")).build());
        assertFalse(rangeHolds(valueOne.clone().setRangeEnd(ByteString.copyFromUtf8("tr/d"))), "tr/c no longer passes");
        assertTrue(rangeHolds(valueOne.clone().setRangeEnd(ByteString.copyFromUtf8("tr/c"))), "range_end is exclusive");
        assertFalse(rangeHolds(valueOne.clone().setKey(ByteString.copyFromUtf8("tr/a")).setRangeEnd(ByteString.copyFrom(new byte[] {0}))),
            "\\0: every key from tr/a on, tr/c included");
        final Compare.Builder versionZero = Compare.newBuilder().setKey(ByteString.copyFromUtf8("tr/z"))
            .setTarget(Compare.CompareTarget.VERSION).setResult(Compare.CompareResult.EQUAL).setVersion(0);
        assertTrue(rangeHolds(versionZero.clone().setRangeEnd(ByteString.copyFromUtf8("tr/zz"))), "no key: version 0");
        assertTrue(rangeHolds(versionZero.clone().setRangeEnd(ByteString.copyFromUtf8("tr/a"))), "range_end before key: no key");
        assertFalse(rangeHolds(valueOne.clone().setKey(ByteString.copyFromUtf8("tr/z")).setRangeEnd(ByteString.copyFromUtf8("tr/a"))),
            "a value compare over no key fails");
    }

    @Test
    void aKeyPutAtTwoLevelsOfNestingIsADuplicateAndChangesNothing()
    {
        final long before = fixture.engine.currentRevision();
        final RequestOp nested = RequestOp.newBuilder().setRequestTxn(TxnRequest.newBuilder().addFailure(put("tn/dup"))).build();

        final StatusRuntimeException duplicate = assertThrows(StatusRuntimeException.class,
            () -> stub.txn(TxnRequest.newBuilder().addSuccess(put("tn/dup")).addSuccess(nested).build()));

        assertEquals(Status.Code.INVALID_ARGUMENT, duplicate.getStatus().getCode());
        assertEquals("etcdserver: duplicate key given in txn request", duplicate.getStatus().getDescription());
        assertEquals(before, fixture.engine.currentRevision());
    }

    @Test
    void compactRefusesOldReadsAndRepeatedOrFutureCompactions() throws Exception
    {
        final long old = kv.put(bytes("c/a"), bytes("1")).get().getHeader().getRevision();
        final long compactAt = kv.put(bytes("c/a"), bytes("2")).get().getHeader().getRevision();
        kv.compact(compactAt).get();
        final Status compacted = KvServiceTest.error(kv.get(bytes("c/a"), GetOption.builder().withRevision(old).build()));
        assertEquals(Status.Code.OUT_OF_RANGE, compacted.getCode());
        assertEquals("etcdserver: mvcc: required revision has been compacted", compacted.getDescription());
        assertEquals("2", text(kv.get(bytes("c/a"), GetOption.builder().withRevision(compactAt).build()).get().getKvs().get(0).getValue()));
        assertEquals("etcdserver: mvcc: required revision has been compacted", KvServiceTest.error(kv.compact(compactAt)).getDescription());
        assertEquals("etcdserver: mvcc: required revision is a future revision",
            KvServiceTest.error(kv.compact(fixture.engine.currentRevision() + 10)).getDescription());
    }

    @Test
    void aRangeAtAFutureRevisionInTheChosenBranchRefusesTheTransactionAndChangesNothing()
    {
        final long current = stub.put(PutRequest.newBuilder().setKey(ByteString.copyFromUtf8("tf/a"))
            .setValue(ByteString.copyFromUtf8("1")).build()).getHeader().getRevision();
        // The transaction's own revision (current + 1) is a future one, as in etcd.
        final TxnRequest ownRevision = TxnRequest.newBuilder().addSuccess(put("tf/b"))
            .addSuccess(range(RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8("tf/a")).setRevision(current + 1))).build();

        final StatusRuntimeException future = assertThrows(StatusRuntimeException.class, () -> stub.txn(ownRevision));

        assertEquals(Status.Code.OUT_OF_RANGE, future.getStatus().getCode());
        assertEquals("etcdserver: mvcc: required revision is a future revision", future.getStatus().getDescription());
        assertEquals(current, fixture.engine.currentRevision(), "nothing written");
        assertTrue(fixture.engine.get("tf/b").isEmpty());
        final TxnRequest atCurrent = TxnRequest.newBuilder().addSuccess(put("tf/b"))
            .addSuccess(range(RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8("tf/a")).setRevision(current))).build();
        assertEquals("1", stub.txn(atCurrent).getResponses(1).getResponseRange().getKvs(0).getValue().toStringUtf8(),
            "the revision before the transaction may be read");
    }

    @Test
    void aRangeAtAFutureRevisionInTheBranchNotTakenRefusesNothing() throws Exception
    {
        final long current = kv.put(bytes("tg/a"), bytes("1")).get().getHeader().getRevision();
        final TxnRequest elseTaken = TxnRequest.newBuilder()
            .addCompare(Compare.newBuilder().setKey(ByteString.copyFromUtf8("tg/a")).setTarget(Compare.CompareTarget.VALUE)
                .setResult(Compare.CompareResult.EQUAL).setValue(ByteString.copyFromUtf8("other")))
            .addSuccess(range(RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8("tg/a")).setRevision(current + 1_000_000)))
            .addFailure(put("tg/b")).build();

        final io.ringwatch.server.api.etcdserverpb.TxnResponse response = stub.txn(elseTaken);

        assertFalse(response.getSucceeded());
        assertEquals(current + 1, response.getHeader().getRevision());
        assertEquals(current + 1, kv.get(bytes("tg/b")).get().getKvs().get(0).getModRevision());
    }

    @Test
    void aRangeBeforeTheCompactionPointInTheChosenBranchRefusesTheTransactionAsCompacted() throws Exception
    {
        final long old = kv.put(bytes("tc/a"), bytes("1")).get().getHeader().getRevision();
        final long compactAt = kv.put(bytes("tc/a"), bytes("2")).get().getHeader().getRevision();
        kv.compact(compactAt).get();
        final long before = fixture.engine.currentRevision();

        final StatusRuntimeException compacted = assertThrows(StatusRuntimeException.class, () -> stub.txn(TxnRequest.newBuilder()
            .addSuccess(put("tc/b")).addSuccess(range(RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8("tc/a")).setRevision(old)))
            .build()));

        assertEquals(Status.Code.OUT_OF_RANGE, compacted.getStatus().getCode());
        assertEquals("etcdserver: mvcc: required revision has been compacted", compacted.getStatus().getDescription());
        assertEquals(before, fixture.engine.currentRevision(), "nothing written");
        assertEquals("2", stub.txn(TxnRequest.newBuilder()
            .addSuccess(range(RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8("tc/a")).setRevision(compactAt))).build())
            .getResponses(0).getResponseRange().getKvs(0).getValue().toStringUtf8(), "the compaction point itself may be read");
    }

    @Test
    void aNegativeRevisionInATransactionsRangeIsRefusedAsEtcdRefusesIt() throws Exception
    {
        kv.put(bytes("neg/a"), bytes("1")).get();
        if (fixture.engine.compactRevision() == 0)
        {
            // Never compacted, etcd's first revision is -1: -1 reads at the current revision, -2 is compacted.
            final io.ringwatch.server.api.etcdserverpb.TxnResponse read = stub.txn(negativeRead(-1, "neg/b"));
            assertEquals(1, read.getResponses(0).getResponseRange().getCount(), "-1 reads at the current revision, as in etcd");
            assertRefusedAsCompacted(negativeRead(-2, "neg/c"));
            assertEquals(0, kv.get(bytes("neg/c")).get().getCount(), "the refused transaction wrote nothing");
        }
        final long current = fixture.engine.currentRevision();
        kv.compact(current).get();
        assertRefusedAsCompacted(negativeRead(-1, "neg/d"));
        assertEquals(0, kv.get(bytes("neg/d")).get().getCount(), "the refused transaction wrote nothing");
        assertEquals(current, fixture.engine.currentRevision(), "no revision was taken");
    }

    /** A transaction whose then branch reads neg/a at {@code revision} and puts {@code key}. */
    private static TxnRequest negativeRead(final long revision, final String key)
    {
        return TxnRequest.newBuilder()
            .addSuccess(range(RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8("neg/a")).setRevision(revision)))
            .addSuccess(put(key))
            .build();
    }

    private static void assertRefusedAsCompacted(final TxnRequest request)
    {
        final StatusRuntimeException refused = assertThrows(StatusRuntimeException.class, () -> stub.txn(request));
        assertEquals(Status.Code.OUT_OF_RANGE, refused.getStatus().getCode());
        assertEquals("etcdserver: mvcc: required revision has been compacted", refused.getStatus().getDescription());
    }

    @Test
    void jetcdSeesAFutureRevisionReadInATransactionAsEtcdsError() throws Exception
    {
        final long current = kv.put(bytes("tj/a"), bytes("1")).get().getHeader().getRevision();

        final Status future = KvServiceTest.error(kv.txn()
            .Then(Op.put(bytes("tj/b"), bytes("2"), PutOption.DEFAULT),
                Op.get(bytes("tj/a"), GetOption.builder().withRevision(current + 1).build()))
            .commit());

        assertEquals(Status.Code.OUT_OF_RANGE, future.getCode());
        assertEquals("etcdserver: mvcc: required revision is a future revision", future.getDescription());
        assertTrue(kv.get(bytes("tj/b")).get().getKvs().isEmpty());
    }

    private static boolean rangeHolds(final Compare.Builder compare)
    {
        return stub.txn(TxnRequest.newBuilder().addCompare(compare).build()).getSucceeded();
    }

    private static boolean holds(final Cmp cmp) throws Exception
    {
        return kv.txn().If(cmp).commit().get().isSucceeded();
    }

    private static RequestOp range(final RangeRequest.Builder range)
    {
        return RequestOp.newBuilder().setRequestRange(range).build();
    }

    /** @return each key-value as key=value@version. */
    private static List<String> kvs(final io.etcd.jetcd.kv.GetResponse get)
    {
        return get.getKvs().stream().map(kv -> text(kv.getKey()) + "=" + text(kv.getValue()) + "@" + kv.getVersion()).toList();
    }

    private static RequestOp put(final String key)
    {
        return RequestOp.newBuilder().setRequestPut(PutRequest.newBuilder().setKey(ByteString.copyFromUtf8(key))
            .setValue(ByteString.copyFromUtf8("v"))).build();
    }
}
