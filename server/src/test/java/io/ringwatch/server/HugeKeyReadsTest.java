package io.ringwatch.server;

import com.google.protobuf.ByteString;
import io.grpc.StatusRuntimeException;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.server.api.etcdserverpb.Compare;
import io.ringwatch.server.api.etcdserverpb.DeleteRangeRequest;
import io.ringwatch.server.api.etcdserverpb.KVGrpc;
import io.ringwatch.server.api.etcdserverpb.PutRequest;
import io.ringwatch.server.api.etcdserverpb.RangeRequest;
import io.ringwatch.server.api.etcdserverpb.RequestOp;
import io.ringwatch.server.api.etcdserverpb.TxnRequest;
import io.ringwatch.server.api.etcdserverpb.WatchCreateRequest;
import io.ringwatch.server.api.etcdserverpb.WatchResponse;
import io.ringwatch.server.kv.EtcdLimits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * etcd has no key limit, only the request's: a key longer than any the engine stores (64 KiB for
 * ringwatch-server) is a key that holds nothing. Reading it, deleting it, comparing on it and
 * watching it answer as etcd answers for an absent key, instead of the engine's refusal. A put of
 * it, which etcd would take within its request limit, cannot be held: it is refused with etcd's
 * nearest error, "request is too large" (the request is too large for this server), a transaction
 * holding one in either branch as a whole, as etcd refuses a transaction over its limit.
 */
class HugeKeyReadsTest
{
    @RegisterExtension
    static final ServerFixture fixture = new ServerFixture(EtcdLimits.applyTo(RingWatchConfig.builder().name("huge-keys")).build());

    private static final ByteString HUGE = huge('h');

    private static ByteString huge(final char c)
    {
        final byte[] key = new byte[EtcdLimits.MAX_KEY_BYTES + 1000];
        Arrays.fill(key, (byte)c);
        return ByteString.copyFrom(key);
    }

    private static KVGrpc.KVBlockingStub kv()
    {
        return KVGrpc.newBlockingStub(fixture.channel);
    }

    @Test
    void aHugeKeyIsReadAsAbsent()
    {
        assertEquals(0, kv().range(RangeRequest.newBuilder().setKey(HUGE).build()).getCount());
    }

    @Test
    void aHugeKeyIsDeletedAsAbsent()
    {
        final long before = fixture.engine.currentRevision();
        assertEquals(0, kv().deleteRange(DeleteRangeRequest.newBuilder().setKey(HUGE).build()).getDeleted());
        assertEquals(before, fixture.engine.currentRevision());
    }

    @Test
    void aCompareOnAHugeKeyComparesAnAbsentKey()
    {
        assertTrue(kv().txn(TxnRequest.newBuilder().addCompare(Compare.newBuilder().setKey(HUGE)
            .setTarget(Compare.CompareTarget.VERSION).setResult(Compare.CompareResult.EQUAL).setVersion(0)).build()).getSucceeded());
        assertFalse(kv().txn(TxnRequest.newBuilder().addCompare(Compare.newBuilder().setKey(HUGE)
            .setTarget(Compare.CompareTarget.VALUE).setResult(Compare.CompareResult.EQUAL).setValue(ByteString.EMPTY)).build()).getSucceeded());
        assertEquals(0, kv().txn(TxnRequest.newBuilder().addSuccess(RequestOp.newBuilder().setRequestDeleteRange(
            DeleteRangeRequest.newBuilder().setKey(HUGE))).addSuccess(RequestOp.newBuilder().setRequestRange(
            RangeRequest.newBuilder().setKey(HUGE))).build()).getResponses(1).getResponseRange().getCount());
    }

    @Test
    void aHugeKeyIsWatched() throws Exception
    {
        try (RawWatchStream stream = new RawWatchStream(fixture.channel, true))
        {
            stream.create(WatchCreateRequest.newBuilder().setKey(HUGE).setWatchId(1));
            final WatchResponse created = stream.next();
            assertTrue(created.getCreated() && !created.getCanceled(), created::toString);
        }
    }

    @Test
    void aPutOfAHugeKeyIsTooLargeForThisServer()
    {
        final long before = fixture.engine.currentRevision();
        final String tooLarge = "INVALID_ARGUMENT etcdserver: request is too large";
        final PutRequest put = PutRequest.newBuilder().setKey(HUGE).setValue(ByteString.copyFromUtf8("v")).build();
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> kv().put(put));
        assertEquals(tooLarge, e.getStatus().getCode() + " " + e.getStatus().getDescription());
        final TxnRequest nested = TxnRequest.newBuilder().addSuccess(RequestOp.newBuilder().setRequestPut(
            PutRequest.newBuilder().setKey(ByteString.copyFromUtf8("hk/a")))).addFailure(RequestOp.newBuilder().setRequestTxn(
            TxnRequest.newBuilder().addSuccess(RequestOp.newBuilder().setRequestPut(put)))).build();
        e = assertThrows(StatusRuntimeException.class, () -> kv().txn(nested));
        assertEquals(tooLarge, e.getStatus().getCode() + " " + e.getStatus().getDescription(), "in a branch not taken too");
        assertEquals(before, fixture.engine.currentRevision());
        final byte[] longest = new byte[EtcdLimits.MAX_KEY_BYTES];
        Arrays.fill(longest, (byte)'l');
        kv().put(PutRequest.newBuilder().setKey(ByteString.copyFrom(longest)).build());
        assertEquals(1, kv().range(RangeRequest.newBuilder().setKey(ByteString.copyFrom(longest)).build()).getCount());
    }
}
