package io.ringwatch.server;

import com.google.protobuf.ByteString;
import io.grpc.StatusRuntimeException;
import io.ringwatch.server.api.etcdserverpb.CompactionRequest;
import io.ringwatch.server.api.etcdserverpb.Compare;
import io.ringwatch.server.api.etcdserverpb.DeleteRangeRequest;
import io.ringwatch.server.api.etcdserverpb.DeleteRangeResponse;
import io.ringwatch.server.api.etcdserverpb.KVGrpc;
import io.ringwatch.server.api.etcdserverpb.PutRequest;
import io.ringwatch.server.api.etcdserverpb.PutResponse;
import io.ringwatch.server.api.etcdserverpb.RangeRequest;
import io.ringwatch.server.api.etcdserverpb.RangeResponse;
import io.ringwatch.server.api.etcdserverpb.RequestOp;
import io.ringwatch.server.api.etcdserverpb.TxnRequest;
import io.ringwatch.server.api.etcdserverpb.TxnResponse;
import io.ringwatch.server.api.etcdserverpb.WatchCreateRequest;
import io.ringwatch.server.api.etcdserverpb.WatchResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Probes of etcd's exact behaviour at its edges, over the raw generated stubs, each checked against
 * etcd's source (api/v3rpc key.go and watch.go, mvcc kvstore_txn.go and watchable_store.go):
 * revisions that are not bumped, etcd's request checks and their messages, the op limit of nested
 * transactions, compaction, and the watch stream's answers (future starts, compacted starts,
 * progress requests on a stream without watches, cancel of an unknown id).
 */
class EtcdConformanceTest
{
    @RegisterExtension
    static final ServerFixture fixture = new ServerFixture();

    private static KVGrpc.KVBlockingStub kv()
    {
        return KVGrpc.newBlockingStub(fixture.channel);
    }

    private static ByteString b(final String s)
    {
        return ByteString.copyFromUtf8(s);
    }

    private static long put(final String k, final String v)
    {
        return kv().put(PutRequest.newBuilder().setKey(b(k)).setValue(b(v)).build()).getHeader().getRevision();
    }

    private static String err(final Runnable r)
    {
        final StatusRuntimeException e = assertThrows(StatusRuntimeException.class, r::run);
        return e.getStatus().getCode() + " " + e.getStatus().getDescription();
    }

    @Test
    void deleteOfNothingDoesNotBump()
    {
        final long rev = put("dn/a", "1");
        final DeleteRangeResponse r = kv().deleteRange(DeleteRangeRequest.newBuilder().setKey(b("dn/zzz")).build());
        assertEquals(0, r.getDeleted());
        assertEquals(rev, r.getHeader().getRevision());
        assertEquals(rev, fixture.engine.currentRevision());
    }

    @Test
    void emptyTxnDoesNotBump()
    {
        final long rev = put("et/a", "1");
        final TxnResponse r = kv().txn(TxnRequest.newBuilder().build());
        assertTrue(r.getSucceeded());
        assertEquals(rev, r.getHeader().getRevision());
    }

    @Test
    void txnPutThenDeleteSameKeyIsDuplicate()
    {
        final TxnRequest t = TxnRequest.newBuilder()
            .addSuccess(RequestOp.newBuilder().setRequestPut(PutRequest.newBuilder().setKey(b("dup/a")).setValue(b("1"))))
            .addSuccess(RequestOp.newBuilder().setRequestDeleteRange(DeleteRangeRequest.newBuilder().setKey(b("dup/a"))))
            .build();
        assertEquals("INVALID_ARGUMENT etcdserver: duplicate key given in txn request", err(() -> kv().txn(t)));
        final TxnRequest nested = TxnRequest.newBuilder()
            .addSuccess(RequestOp.newBuilder().setRequestPut(PutRequest.newBuilder().setKey(b("dup/b")).setValue(b("1"))))
            .addSuccess(RequestOp.newBuilder().setRequestTxn(TxnRequest.newBuilder()
                .addSuccess(RequestOp.newBuilder().setRequestPut(PutRequest.newBuilder().setKey(b("dup/b")).setValue(b("2"))))))
            .build();
        assertEquals("INVALID_ARGUMENT etcdserver: duplicate key given in txn request", err(() -> kv().txn(nested)));
        // two deletes of one key: allowed in etcd
        final TxnRequest dels = TxnRequest.newBuilder()
            .addSuccess(RequestOp.newBuilder().setRequestDeleteRange(DeleteRangeRequest.newBuilder().setKey(b("dup/c"))))
            .addSuccess(RequestOp.newBuilder().setRequestDeleteRange(DeleteRangeRequest.newBuilder().setKey(b("dup/c"))))
            .build();
        assertTrue(kv().txn(dels).getSucceeded());
        // put in then and put in else of the same key: allowed (different branches)
        final TxnRequest branches = TxnRequest.newBuilder()
            .addSuccess(RequestOp.newBuilder().setRequestPut(PutRequest.newBuilder().setKey(b("dup/d")).setValue(b("1"))))
            .addFailure(RequestOp.newBuilder().setRequestPut(PutRequest.newBuilder().setKey(b("dup/d")).setValue(b("1"))))
            .build();
        assertTrue(kv().txn(branches).getSucceeded());
    }

    @Test
    void putIgnoreValueMissingKey()
    {
        assertEquals("INVALID_ARGUMENT etcdserver: key not found",
            err(() -> kv().put(PutRequest.newBuilder().setKey(b("iv/missing")).setIgnoreValue(true).build())));
        assertEquals("INVALID_ARGUMENT etcdserver: value is provided",
            err(() -> kv().put(PutRequest.newBuilder().setKey(b("iv/missing")).setValue(b("x")).setIgnoreValue(true).build())));
        assertEquals("INVALID_ARGUMENT etcdserver: key not found",
            err(() -> kv().put(PutRequest.newBuilder().setKey(b("iv/missing")).setIgnoreLease(true).build())));
        final TxnRequest t = TxnRequest.newBuilder()
            .addSuccess(RequestOp.newBuilder().setRequestPut(PutRequest.newBuilder().setKey(b("iv/missing")).setIgnoreValue(true)))
            .build();
        assertEquals("INVALID_ARGUMENT etcdserver: key not found", err(() -> kv().txn(t)));
    }

    @Test
    void txnPutIgnoreValueKeepsTheValueOnTheChosenPathOnly()
    {
        final long created = put("tiv/a", "kept");
        put("tiv/a", "kept2");
        final TxnRequest t = TxnRequest.newBuilder()
            .addCompare(Compare.newBuilder().setKey(b("tiv/a")).setTarget(Compare.CompareTarget.VERSION)
                .setResult(Compare.CompareResult.EQUAL).setVersion(2))
            .addSuccess(RequestOp.newBuilder().setRequestTxn(TxnRequest.newBuilder()
                .addSuccess(RequestOp.newBuilder().setRequestPut(PutRequest.newBuilder().setKey(b("tiv/a")).setIgnoreValue(true).setPrevKv(true)))
                .addSuccess(RequestOp.newBuilder().setRequestRange(RangeRequest.newBuilder().setKey(b("tiv/a"))))))
            .addSuccess(RequestOp.newBuilder().setRequestPut(PutRequest.newBuilder().setKey(b("tiv/b")).setValue(b("v"))))
            // an ignore_value put on a missing key off the chosen path is no error, as in etcd
            .addFailure(RequestOp.newBuilder().setRequestPut(PutRequest.newBuilder().setKey(b("tiv/missing")).setIgnoreValue(true)))
            .build();
        final TxnResponse r = kv().txn(t);
        assertTrue(r.getSucceeded());
        final long revision = fixture.engine.currentRevision();
        assertEquals(revision, r.getHeader().getRevision());
        final TxnResponse nested = r.getResponses(0).getResponseTxn();
        // etcd fills only the outermost transaction's header; a nested one's stays empty (etcd 3.4.23, TxnHeaderRevisionTest).
        assertEquals(0, nested.getHeader().getRevision());
        assertEquals("kept2", nested.getResponses(0).getResponsePut().getPrevKv().getValue().toStringUtf8());
        assertEquals("kept2", nested.getResponses(1).getResponseRange().getKvs(0).getValue().toStringUtf8());
        assertEquals(revision, nested.getResponses(1).getResponseRange().getKvs(0).getModRevision());
        assertEquals(created, nested.getResponses(1).getResponseRange().getKvs(0).getCreateRevision());
        assertEquals(3, nested.getResponses(1).getResponseRange().getKvs(0).getVersion());
        assertEquals(revision, r.getResponses(1).getResponsePut().getHeader().getRevision());
    }

    private static boolean holds(final Compare.Builder compare)
    {
        return kv().txn(TxnRequest.newBuilder().addCompare(compare).build()).getSucceeded();
    }

    @Test
    void comparesOnMissingKeys()
    {
        put("cm/present", "v");
        // etcd's applyCompare: a value compare over no key always fails, whatever the operator
        assertFalse(holds(Compare.newBuilder().setKey(b("cm/missing")).setTarget(Compare.CompareTarget.VALUE)
            .setResult(Compare.CompareResult.NOT_EQUAL).setValue(b("x"))));
        assertFalse(holds(Compare.newBuilder().setKey(b("cm/missing")).setTarget(Compare.CompareTarget.VALUE)
            .setResult(Compare.CompareResult.EQUAL).setValue(ByteString.EMPTY)));
        assertFalse(holds(Compare.newBuilder().setKey(b("cm/missing")).setRangeEnd(b("cm/missinh")).setTarget(Compare.CompareTarget.VALUE)
            .setResult(Compare.CompareResult.NOT_EQUAL).setValue(b("x"))));
        // the other targets compare a missing key as zeros
        assertTrue(holds(Compare.newBuilder().setKey(b("cm/missing")).setTarget(Compare.CompareTarget.VERSION)
            .setResult(Compare.CompareResult.EQUAL).setVersion(0)));
        assertTrue(holds(Compare.newBuilder().setKey(b("cm/missing")).setTarget(Compare.CompareTarget.LEASE)
            .setResult(Compare.CompareResult.EQUAL).setLease(0)));
        assertTrue(holds(Compare.newBuilder().setKey(b("cm/missing")).setTarget(Compare.CompareTarget.MOD)
            .setResult(Compare.CompareResult.LESS).setModRevision(1)));
        assertTrue(holds(Compare.newBuilder().setKey(b("cm/missing")).setRangeEnd(b("cm/missinh")).setTarget(Compare.CompareTarget.CREATE)
            .setResult(Compare.CompareResult.EQUAL).setCreateRevision(0)));
        assertTrue(holds(Compare.newBuilder().setKey(b("cm/present")).setTarget(Compare.CompareTarget.VALUE)
            .setResult(Compare.CompareResult.GREATER).setValue(b("u"))));
        // over a range, every key must satisfy it; "\0" as range_end: every key from key on
        assertFalse(holds(Compare.newBuilder().setKey(b("cm/")).setRangeEnd(ByteString.copyFrom(new byte[] {0}))
            .setTarget(Compare.CompareTarget.VERSION).setResult(Compare.CompareResult.EQUAL).setVersion(0)));
    }

    @Test
    void writeResponsesAndReadOnlyTxns()
    {
        final PutResponse fresh = kv().put(PutRequest.newBuilder().setKey(b("wr/a")).setValue(b("1")).setPrevKv(true).build());
        assertFalse(fresh.hasPrevKv(), "no prev_kv for a key that did not exist");
        put("wr/b", "2");
        final long rev = fixture.engine.currentRevision();
        final TxnResponse ro = kv().txn(TxnRequest.newBuilder()
            .addSuccess(RequestOp.newBuilder().setRequestRange(RangeRequest.newBuilder().setKey(b("wr/a")))).build());
        assertEquals(rev, ro.getHeader().getRevision());
        assertEquals(rev, ro.getResponses(0).getResponseRange().getHeader().getRevision());
        final DeleteRangeResponse del = kv().deleteRange(DeleteRangeRequest.newBuilder().setKey(b("wr/")).setRangeEnd(b("wr0"))
            .setPrevKv(true).build());
        assertEquals(2, del.getDeleted());
        assertEquals("wr/a", del.getPrevKvs(0).getKey().toStringUtf8());
        assertEquals(rev + 1, del.getHeader().getRevision());
        final RangeResponse sorted = kv().range(RangeRequest.newBuilder().setKey(b("lc/")).setRangeEnd(b("lc0")).setLimit(1)
            .setSortTarget(RangeRequest.SortTarget.MOD).setSortOrder(RangeRequest.SortOrder.DESCEND).build());
        if (sorted.getKvsCount() > 0)
        {
            assertEquals("lc/c", sorted.getKvs(0).getKey().toStringUtf8());
        }
    }

    @Test
    void aWriteOverEtcdsRequestLimitIsTooLarge()
    {
        final long before = fixture.engine.currentRevision();
        assertEquals("INVALID_ARGUMENT etcdserver: request is too large", err(() -> kv().put(PutRequest.newBuilder()
            .setKey(b("big/a")).setValue(ByteString.copyFrom(new byte[1_600_000])).build())));
        final ByteString nearlyOneMiB = ByteString.copyFrom(new byte[900_000]);
        assertEquals("INVALID_ARGUMENT etcdserver: request is too large", err(() -> kv().txn(TxnRequest.newBuilder()
            .addSuccess(RequestOp.newBuilder().setRequestPut(PutRequest.newBuilder().setKey(b("big/b")).setValue(nearlyOneMiB)))
            .addSuccess(RequestOp.newBuilder().setRequestPut(PutRequest.newBuilder().setKey(b("big/c")).setValue(nearlyOneMiB)))
            .build())));
        assertEquals(before, fixture.engine.currentRevision());
    }

    @Test
    void putWithUnknownLease()
    {
        assertEquals("NOT_FOUND etcdserver: requested lease not found",
            err(() -> kv().put(PutRequest.newBuilder().setKey(b("ul/a")).setValue(b("x")).setLease(424242).build())));
    }

    @Test
    void emptyKeys()
    {
        assertEquals("INVALID_ARGUMENT etcdserver: key is not provided",
            err(() -> kv().put(PutRequest.newBuilder().setValue(b("x")).build())));
        assertEquals("INVALID_ARGUMENT etcdserver: key is not provided",
            err(() -> kv().deleteRange(DeleteRangeRequest.newBuilder().build())));
        assertEquals("INVALID_ARGUMENT etcdserver: key is not provided",
            err(() -> kv().range(RangeRequest.newBuilder().build())));
        final TxnRequest t = TxnRequest.newBuilder()
            .addSuccess(RequestOp.newBuilder().setRequestPut(PutRequest.newBuilder().setValue(b("x")))).build();
        assertEquals("INVALID_ARGUMENT etcdserver: key is not provided", err(() -> kv().txn(t)));
        final TxnRequest c = TxnRequest.newBuilder()
            .addCompare(Compare.newBuilder().setTarget(Compare.CompareTarget.VERSION).setVersion(0)).build();
        assertEquals("INVALID_ARGUMENT etcdserver: key is not provided", err(() -> kv().txn(c)));
    }

    @Test
    void emptyTxnOpIsKeyNotFound()
    {
        final TxnRequest t = TxnRequest.newBuilder().addSuccess(RequestOp.getDefaultInstance()).build();
        assertEquals("INVALID_ARGUMENT etcdserver: key not found", err(() -> kv().txn(t)));
    }

    @Test
    void nestedTxnGetsWhatItsParentLeftOfTheOpLimit()
    {
        final TxnRequest.Builder inner = TxnRequest.newBuilder();
        for (int i = 0; i < 30; i++)
        {
            inner.addSuccess(RequestOp.newBuilder().setRequestPut(PutRequest.newBuilder().setKey(b("nl/in" + i)).setValue(b("x"))));
        }
        final TxnRequest.Builder outer = TxnRequest.newBuilder();
        for (int i = 0; i < 99; i++)
        {
            outer.addSuccess(RequestOp.newBuilder().setRequestPut(PutRequest.newBuilder().setKey(b("nl/out" + i)).setValue(b("x"))));
        }
        outer.addSuccess(RequestOp.newBuilder().setRequestTxn(inner));
        // 100 ops at the top leave 28 for the nested txn (etcd: maxTxnOps - opc); it has 30
        assertEquals("INVALID_ARGUMENT etcdserver: too many operations in txn request", err(() -> kv().txn(outer.build())));
        final TxnRequest.Builder wide = TxnRequest.newBuilder();
        for (int i = 0; i < 100; i++)
        {
            wide.addSuccess(RequestOp.newBuilder().setRequestPut(PutRequest.newBuilder().setKey(b("nl/w" + i)).setValue(b("x"))));
            wide.addFailure(RequestOp.newBuilder().setRequestPut(PutRequest.newBuilder().setKey(b("nl/w" + i)).setValue(b("y"))));
        }
        assertTrue(kv().txn(wide.build()).getSucceeded(), "100 then + 100 else is within etcd's limit");
    }

    @Test
    void rangeRevisionsAndHeader()
    {
        final long first = put("rr/a", "1");
        final long second = put("rr/a", "2");
        final RangeResponse old = kv().range(RangeRequest.newBuilder().setKey(b("rr/a")).setRevision(first).build());
        assertEquals("1", old.getKvs(0).getValue().toStringUtf8());
        assertEquals(fixture.engine.currentRevision(), old.getHeader().getRevision());
        assertTrue(old.getHeader().getRaftTerm() > 0);
        final long cur = fixture.engine.currentRevision();
        assertEquals("OUT_OF_RANGE etcdserver: mvcc: required revision is a future revision",
            err(() -> kv().range(RangeRequest.newBuilder().setKey(b("rr/a")).setRevision(cur + 1).build())));
        assertTrue(second > first);
    }

    @Test
    void rangeLimitCountMore()
    {
        put("lc/a", "1");
        put("lc/b", "2");
        put("lc/c", "3");
        final RangeResponse r = kv().range(RangeRequest.newBuilder().setKey(b("lc/")).setRangeEnd(b("lc0")).setLimit(2).build());
        assertEquals(2, r.getKvsCount());
        assertEquals(3, r.getCount());
        assertTrue(r.getMore());
        final RangeResponse co = kv().range(RangeRequest.newBuilder().setKey(b("lc/")).setRangeEnd(b("lc0")).setLimit(2).setCountOnly(true).build());
        assertEquals(0, co.getKvsCount());
        assertEquals(3, co.getCount());
        assertFalse(co.getMore());
        final RangeResponse exact = kv().range(RangeRequest.newBuilder().setKey(b("lc/")).setRangeEnd(b("lc0")).setLimit(3).build());
        assertFalse(exact.getMore());
        final RangeResponse ko = kv().range(RangeRequest.newBuilder().setKey(b("lc/")).setRangeEnd(b("lc0")).setKeysOnly(true)
            .setSortTarget(RangeRequest.SortTarget.VALUE).setSortOrder(RangeRequest.SortOrder.DESCEND).build());
        assertEquals("lc/c", ko.getKvs(0).getKey().toStringUtf8());
        assertTrue(ko.getKvs(0).getValue().isEmpty());
    }

    @Test
    void compaction()
    {
        put("cp/a", "1");
        final long cur = fixture.engine.currentRevision();
        assertEquals("OUT_OF_RANGE etcdserver: mvcc: required revision is a future revision",
            err(() -> kv().compact(CompactionRequest.newBuilder().setRevision(cur + 1).build())));
        kv().compact(CompactionRequest.newBuilder().setRevision(cur).build());
        assertEquals("OUT_OF_RANGE etcdserver: mvcc: required revision has been compacted",
            err(() -> kv().compact(CompactionRequest.newBuilder().setRevision(cur).build())));
        assertEquals("OUT_OF_RANGE etcdserver: mvcc: required revision has been compacted",
            err(() -> kv().compact(CompactionRequest.newBuilder().setRevision(cur - 1).build())));
        assertEquals("OUT_OF_RANGE etcdserver: mvcc: required revision has been compacted",
            err(() -> kv().range(RangeRequest.newBuilder().setKey(b("cp/a")).setRevision(cur - 1).build())));
        // reading at the compaction revision itself is allowed
        kv().range(RangeRequest.newBuilder().setKey(b("cp/a")).setRevision(cur).build());
        final long after = fixture.engine.currentRevision();
        assertEquals(after, cur, "compaction does not bump the revision");
    }

    @Test
    void watchFutureStartWaits() throws Exception
    {
        try (RawWatchStream stream = new RawWatchStream(fixture.channel, true))
        {
            final long cur = fixture.engine.currentRevision();
            stream.create(WatchCreateRequest.newBuilder().setKey(b("wf/a")).setStartRevision(cur + 3).setWatchId(3));
            final WatchResponse created = stream.next();
            assertTrue(created.getCreated());
            assertFalse(created.getCanceled(), created.getCancelReason());
            put("wf/a", "1");
            put("wf/a", "2");
            put("wf/a", "3");
            final WatchResponse ev = stream.next();
            assertEquals(1, ev.getEventsCount(), ev.toString());
            assertEquals(cur + 3, ev.getEvents(0).getKv().getModRevision());
        }
    }

    @Test
    void progressRequestWithoutWatchesIsNotAnswered() throws Exception
    {
        try (RawWatchStream stream = new RawWatchStream(fixture.channel, true))
        {
            stream.requestProgress();
            stream.create(WatchCreateRequest.newBuilder().setKey(b("pw/a")).setWatchId(9));
            final WatchResponse first = stream.next();
            assertTrue(first.getCreated(), "etcd sends nothing for a progress request on a stream without watches: " + first);
        }
    }

    @Test
    void compactedStartIsCreatedThenCanceled() throws Exception
    {
        put("wc/a", "1");
        put("wc/a", "2");
        final long cur = fixture.engine.currentRevision();
        fixture.engine.compact(cur);
        try (RawWatchStream stream = new RawWatchStream(fixture.channel, true))
        {
            stream.create(WatchCreateRequest.newBuilder().setKey(b("wc/a")).setStartRevision(cur - 1).setWatchId(4));
            final WatchResponse created = stream.next();
            assertTrue(created.getCreated());
            assertFalse(created.getCanceled());
            assertEquals(4, created.getWatchId());
            final WatchResponse compacted = stream.next();
            assertEquals(4, compacted.getWatchId());
            assertTrue(compacted.getCanceled());
            assertEquals(cur, compacted.getCompactRevision());
            assertEquals("", compacted.getCancelReason(), "etcd sets no cancel reason on a compacted watch");
            assertEquals(0, compacted.getHeader().getRevision(), "etcd's compacted response has header revision 0");
            // no further response
            assertNull(stream.responses.poll(300, TimeUnit.MILLISECONDS));
        }
    }

    @Test
    void cancelUnknownIdIsSilent() throws Exception
    {
        try (RawWatchStream stream = new RawWatchStream(fixture.channel, true))
        {
            stream.cancel(77);
            stream.create(WatchCreateRequest.newBuilder().setKey(b("cu/a")).setWatchId(1));
            assertTrue(stream.next().getCreated());
        }
    }

    @Test
    void watchRangeEndNulAndEmptyKey() throws Exception
    {
        try (RawWatchStream stream = new RawWatchStream(fixture.channel, true))
        {
            stream.create(WatchCreateRequest.newBuilder().setKey(b("zz/m")).setRangeEnd(ByteString.copyFrom(new byte[] {0})).setWatchId(1));
            assertTrue(stream.next().getCreated());
            put("zz/a", "x");
            put("zzz", "y");
            final WatchResponse ev = stream.next();
            assertEquals("zzz", ev.getEvents(0).getKv().getKey().toStringUtf8());
        }
    }

    @Test
    void prevKvOnDeleteAndCreateEvents() throws Exception
    {
        try (RawWatchStream stream = new RawWatchStream(fixture.channel, true))
        {
            stream.create(WatchCreateRequest.newBuilder().setKey(b("pk/a")).setPrevKv(true).setWatchId(1));
            assertTrue(stream.next().getCreated());
            put("pk/a", "1");
            kv().deleteRange(DeleteRangeRequest.newBuilder().setKey(b("pk/a")).build());
            WatchResponse r = stream.next();
            int seen = r.getEventsCount();
            assertFalse(r.getEvents(0).hasPrevKv(), "a create event carries no prev_kv in etcd");
            if (seen < 2)
            {
                r = stream.next();
                assertEquals("1", r.getEvents(0).getPrevKv().getValue().toStringUtf8());
            }
        }
    }
}
