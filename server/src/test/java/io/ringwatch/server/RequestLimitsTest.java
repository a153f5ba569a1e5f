package io.ringwatch.server;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import io.grpc.StatusRuntimeException;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.server.api.etcdserverpb.Compare;
import io.ringwatch.server.api.etcdserverpb.KVGrpc;
import io.ringwatch.server.api.etcdserverpb.PutRequest;
import io.ringwatch.server.api.etcdserverpb.RequestOp;
import io.ringwatch.server.api.etcdserverpb.TxnRequest;
import io.ringwatch.server.kv.EtcdLimits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URI;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * etcd 3.5.22's request limits, read in its source: gRPC takes a message up to --max-request-bytes
 * plus 512 KiB (v3rpc grpc.go), larger is RESOURCE_EXHAUSTED before any handler; a write is refused
 * with "request is too large" when the raft request wrapping it, with its header (an id whose top
 * 16 bits are the member id's low 16), is over --max-request-bytes (processInternalRaftRequestOnce);
 * a read-only transaction goes through no raft request and has no such limit. --max-request-bytes
 * and --max-txn-ops set both limits, as etcd's flags. A transaction is checked as etcd's kvServer.Txn
 * does: its operations (checkTxnRequest), then duplicate keys (checkIntervals), then the size.
 */
class RequestLimitsTest
{
    @RegisterExtension
    static final ServerFixture fixture = new ServerFixture(EtcdLimits.applyTo(RingWatchConfig.builder().name("limits-test")).build());

    private static final String TOO_LARGE = "INVALID_ARGUMENT etcdserver: request is too large";

    private static KVGrpc.KVBlockingStub kv(final ServerFixture server)
    {
        return KVGrpc.newBlockingStub(server.channel).withMaxOutboundMessageSize(64 << 20);
    }

    private static String error(final Runnable call)
    {
        final StatusRuntimeException e = assertThrows(StatusRuntimeException.class, call::run);
        return e.getStatus().getCode() + " " + e.getStatus().getDescription();
    }

    private static PutRequest put(final String key, final int valueBytes)
    {
        return PutRequest.newBuilder().setKey(ByteString.copyFromUtf8(key)).setValue(ByteString.copyFrom(new byte[valueBytes])).build();
    }

    @Test
    void aMessageOverEtcdsReceiveLimitIsResourceExhausted()
    {
        final long before = fixture.engine.currentRevision();
        final String refused = error(() -> kv(fixture).put(put("rl/big", 3 << 20)));
        assertEquals("RESOURCE_EXHAUSTED", refused.substring(0, refused.indexOf(' ')), refused);
        assertEquals(TOO_LARGE, error(() -> kv(fixture).put(put("rl/big", (3 << 19) + 1000))), "within gRPC's limit: etcd's own");
        assertEquals(before, fixture.engine.currentRevision());
    }

    @Test
    void theSizeLimitCountsTheRaftRequestAroundTheWrite()
    {
        final long memberId = kv(fixture).put(put("rl/m", 1)).getHeader().getMemberId();
        final int fits = largestPutValue(memberId, "rl/edge", EtcdLimits.MAX_REQUEST_BYTES);
        kv(fixture).put(put("rl/edge", fits));
        assertEquals(TOO_LARGE, error(() -> kv(fixture).put(put("rl/edge", fits + 1))));
    }

    /** The largest value a put of {@code key} may carry so that etcd's raft request stays within {@code limit}. */
    private static int largestPutValue(final long memberId, final String key, final int limit)
    {
        // InternalRaftRequest{header (field 100) = RequestHeader{ID (field 1)}, put (field 4)}: the id
        // is the member id's low 16 bits over 48 bits of time and count (idutil), its top time bit set now.
        final long requestId = (memberId & 0xFFFF) << 48 | 1L << 47;
        final int header = 2 + 1 + 1 + CodedOutputStream.computeUInt64SizeNoTag(requestId);
        int value = limit;
        while (header + 1 + CodedOutputStream.computeUInt32SizeNoTag(put(key, value).getSerializedSize()) +
            put(key, value).getSerializedSize() > limit)
        {
            value--;
        }
        return value;
    }

    @Test
    void aReadOnlyTransactionHasNoRequestSizeLimit()
    {
        final ByteString large = ByteString.copyFrom(new byte[1_700_000]);
        final TxnRequest readOnly = TxnRequest.newBuilder()
            .addCompare(Compare.newBuilder().setKey(ByteString.copyFromUtf8("rl/none")).setTarget(Compare.CompareTarget.VALUE)
                .setResult(Compare.CompareResult.EQUAL).setValue(large))
            .addFailure(RequestOp.newBuilder().setRequestRange(io.ringwatch.server.api.etcdserverpb.RangeRequest.newBuilder()
                .setKey(ByteString.copyFromUtf8("rl/none"))))
            .build();
        assertFalse(kv(fixture).txn(readOnly).getSucceeded());
        assertEquals(TOO_LARGE, error(() -> kv(fixture).txn(readOnly.toBuilder().addFailure(RequestOp.newBuilder()
            .setRequestPut(put("rl/w", 1))).build())), "a transaction that writes goes through raft");
    }

    @Test
    void etcdsFlagsSetTheRequestAndTransactionLimits() throws Exception
    {
        final int maxRequestBytes = 10 << 20;
        try (ServerFixture big = new ServerFixture(EtcdLimits.applyTo(RingWatchConfig.builder().name("limits-flags"), maxRequestBytes).build())
            .start(ServerOptions.builder().name("limits-flags").listenClientUrl(URI.create("http://127.0.0.1:0"))
                .maxRequestBytes(maxRequestBytes).maxTxnOps(4)))
        {
            // etcd's TestV3LargeRequests, at 10 MiB.
            kv(big).put(put("lf/a", 9 << 20));
            assertEquals(TOO_LARGE, error(() -> kv(big).put(put("lf/a", 10 << 20))));
            assertEquals(TOO_LARGE, error(() -> kv(big).put(put("lf/a", (10 << 20) + 5))));
            final TxnRequest.Builder txn = TxnRequest.newBuilder();
            for (int i = 0; i < 4; i++)
            {
                txn.addSuccess(RequestOp.newBuilder().setRequestPut(put("lf/t" + i, 1)));
            }
            kv(big).txn(txn.build());
            txn.addSuccess(RequestOp.newBuilder().setRequestPut(put("lf/t4", 1)));
            assertEquals("INVALID_ARGUMENT etcdserver: too many operations in txn request", error(() -> kv(big).txn(txn.build())));
        }
    }

    @Test
    void aTransactionTooLargeAndWithADuplicateKeyIsADuplicateKey()
    {
        final long before = fixture.engine.currentRevision();
        final TxnRequest both = TxnRequest.newBuilder()
            .addSuccess(RequestOp.newBuilder().setRequestPut(put("rl/dup", 1_000_000)))
            .addSuccess(RequestOp.newBuilder().setRequestPut(put("rl/dup", 1_000_000)))
            .build();
        assertEquals("INVALID_ARGUMENT etcdserver: duplicate key given in txn request", error(() -> kv(fixture).txn(both)),
            "etcd checks duplicate keys before the size");
        final TxnRequest nested = TxnRequest.newBuilder()
            .addSuccess(RequestOp.newBuilder().setRequestDeleteRange(io.ringwatch.server.api.etcdserverpb.DeleteRangeRequest.newBuilder()
                .setKey(ByteString.copyFromUtf8("rl/n/")).setRangeEnd(ByteString.copyFromUtf8("rl/n0"))))
            .addSuccess(RequestOp.newBuilder().setRequestTxn(TxnRequest.newBuilder()
                .addFailure(RequestOp.newBuilder().setRequestPut(put("rl/n/a", 1_000_000)))
                .addFailure(RequestOp.newBuilder().setRequestPut(put("rl/other", 1_000_000)))))
            .build();
        assertEquals("INVALID_ARGUMENT etcdserver: duplicate key given in txn request", error(() -> kv(fixture).txn(nested)),
            "a nested put inside a deleted range");
        assertEquals(TOO_LARGE, error(() -> kv(fixture).txn(TxnRequest.newBuilder()
            .addSuccess(RequestOp.newBuilder().setRequestPut(put("rl/dup", 1_000_000)))
            .addFailure(RequestOp.newBuilder().setRequestPut(put("rl/dup", 1_000_000)))
            .build())), "the same key in both branches is no duplicate");
        assertEquals(before, fixture.engine.currentRevision());
    }
}
