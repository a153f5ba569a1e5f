package io.ringwatch.server;

import com.google.protobuf.ByteString;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import io.ringwatch.server.api.etcdserverpb.Compare;
import io.ringwatch.server.api.etcdserverpb.DeleteRangeRequest;
import io.ringwatch.server.api.etcdserverpb.KVGrpc;
import io.ringwatch.server.api.etcdserverpb.LeaseGrantRequest;
import io.ringwatch.server.api.etcdserverpb.LeaseGrpc;
import io.ringwatch.server.api.etcdserverpb.LeaseKeepAliveRequest;
import io.ringwatch.server.api.etcdserverpb.LeaseKeepAliveResponse;
import io.ringwatch.server.api.etcdserverpb.LeaseLeasesRequest;
import io.ringwatch.server.api.etcdserverpb.LeaseRevokeRequest;
import io.ringwatch.server.api.etcdserverpb.LeaseTimeToLiveRequest;
import io.ringwatch.server.api.etcdserverpb.LeaseTimeToLiveResponse;
import io.ringwatch.server.api.etcdserverpb.PutRequest;
import io.ringwatch.server.api.etcdserverpb.RangeRequest;
import io.ringwatch.server.api.etcdserverpb.RequestOp;
import io.ringwatch.server.api.etcdserverpb.TxnRequest;
import io.ringwatch.engine.config.RingWatchConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Lease and transaction edges over the raw stubs, each against etcd 3.5's source: v3rpc key.go
 * ({@code checkPutRequest}), lease.go ({@code leaseKeepAlive}), etcdserver v3_server.go
 * ({@code LeaseGrant}), lessor.go ({@code Grant}: a TTL below the minimum is raised to it)
 * and apply.go ({@code applyCompare} over a range: every key must satisfy it). The lease clock
 * is the test's, so no TTL runs out.
 */
class LeaseAndTxnProbesTest
{
    private static final AtomicLong NOW_MILLIS = new AtomicLong();
    @RegisterExtension
    static final ServerFixture fixture = new ServerFixture(RingWatchConfig.builder().name("lease-txn-probes")
        .leaseClock(NOW_MILLIS::get).build());

    private static KVGrpc.KVBlockingStub kv()
    {
        return KVGrpc.newBlockingStub(fixture.channel);
    }

    private static LeaseGrpc.LeaseBlockingStub leases()
    {
        return LeaseGrpc.newBlockingStub(fixture.channel);
    }

    private static ByteString b(final String s)
    {
        return ByteString.copyFromUtf8(s);
    }

    private static String err(final Runnable r)
    {
        final StatusRuntimeException e = assertThrows(StatusRuntimeException.class, r::run);
        return e.getStatus().getCode() + " " + e.getStatus().getDescription();
    }

    @Test
    void aTtlBelowTheMinimumNegativeIncludedIsRaisedToIt()
    {
        assertEquals(2, leases().leaseGrant(LeaseGrantRequest.newBuilder().setTTL(-5).build()).getTTL(), "etcd's 2 s minimum");
        assertEquals(2, leases().leaseGrant(LeaseGrantRequest.newBuilder().setTTL(1).build()).getTTL());
    }

    @Test
    void ignoreLeaseWithALeaseIsRefusedAndOnAKeyWithoutOneKeepsNone()
    {
        final long id = leases().leaseGrant(LeaseGrantRequest.newBuilder().setTTL(30).build()).getID();
        assertEquals("INVALID_ARGUMENT etcdserver: lease is provided",
            err(() -> kv().put(PutRequest.newBuilder().setKey(b("il/a")).setValue(b("v")).setIgnoreLease(true).setLease(id).build())));
        kv().put(PutRequest.newBuilder().setKey(b("il/a")).setValue(b("1")).build());
        kv().put(PutRequest.newBuilder().setKey(b("il/a")).setValue(b("2")).setIgnoreLease(true).build());
        assertEquals(0, kv().range(RangeRequest.newBuilder().setKey(b("il/a")).build()).getKvs(0).getLease());
        assertEquals("2", kv().range(RangeRequest.newBuilder().setKey(b("il/a")).build()).getKvs(0).getValue().toStringUtf8());
    }

    @Test
    void aKeepAliveForARevokedLeaseIsTtlZeroAndTheStreamGoesOn() throws Exception
    {
        final long live = leases().leaseGrant(LeaseGrantRequest.newBuilder().setTTL(30).build()).getID();
        final long revoked = leases().leaseGrant(LeaseGrantRequest.newBuilder().setTTL(30).build()).getID();
        leases().leaseRevoke(LeaseRevokeRequest.newBuilder().setID(revoked).build());
        final BlockingQueue<LeaseKeepAliveResponse> answers = new LinkedBlockingQueue<>();
        final StreamObserver<LeaseKeepAliveRequest> requests = LeaseGrpc.newStub(fixture.channel).leaseKeepAlive(
            new StreamObserver<>()
            {
                @Override
                public void onNext(final LeaseKeepAliveResponse value)
                {
                    answers.add(value);
                }

                @Override
                public void onError(final Throwable t)
                {
                }

                @Override
                public void onCompleted()
                {
                }
            });
        requests.onNext(LeaseKeepAliveRequest.newBuilder().setID(revoked).build());
        final LeaseKeepAliveResponse gone = answers.poll(20, TimeUnit.SECONDS);
        assertNotNull(gone);
        assertEquals(revoked, gone.getID());
        assertEquals(0, gone.getTTL());
        requests.onNext(LeaseKeepAliveRequest.newBuilder().setID(live).build());
        final LeaseKeepAliveResponse renewed = answers.poll(20, TimeUnit.SECONDS);
        assertNotNull(renewed, "the stream goes on after a TTL 0 answer");
        assertEquals(live, renewed.getID());
        assertEquals(30, renewed.getTTL());
        requests.onCompleted();
    }

    @Test
    void timeToLiveOfALeaseWithoutKeysListsNone()
    {
        final long id = leases().leaseGrant(LeaseGrantRequest.newBuilder().setTTL(30).build()).getID();
        final LeaseTimeToLiveResponse left = leases().leaseTimeToLive(LeaseTimeToLiveRequest.newBuilder().setID(id).setKeys(true).build());
        assertEquals(id, left.getID());
        assertEquals(30, left.getGrantedTTL());
        assertEquals(0, left.getKeysCount());
    }

    private static boolean holds(final Compare.Builder compare)
    {
        return kv().txn(TxnRequest.newBuilder().addCompare(compare).build()).getSucceeded();
    }

    @Test
    void aCompareOverARangeHoldsOnlyWhenEveryKeyInItDoes()
    {
        kv().put(PutRequest.newBuilder().setKey(b("rc/a")).setValue(b("1")).build());
        kv().put(PutRequest.newBuilder().setKey(b("rc/b")).setValue(b("1")).build());
        kv().put(PutRequest.newBuilder().setKey(b("rc/b")).setValue(b("2")).build());
        final Compare.Builder range = Compare.newBuilder().setKey(b("rc/")).setRangeEnd(b("rc0"));
        assertTrue(holds(range.clone().setTarget(Compare.CompareTarget.VERSION).setResult(Compare.CompareResult.GREATER).setVersion(0)));
        assertFalse(holds(range.clone().setTarget(Compare.CompareTarget.VERSION).setResult(Compare.CompareResult.EQUAL).setVersion(1)));
        assertTrue(holds(range.clone().setTarget(Compare.CompareTarget.VALUE).setResult(Compare.CompareResult.LESS).setValue(b("3"))));
        assertFalse(holds(range.clone().setTarget(Compare.CompareTarget.VALUE).setResult(Compare.CompareResult.NOT_EQUAL).setValue(b("1"))));
        assertTrue(holds(range.clone().setTarget(Compare.CompareTarget.LEASE).setResult(Compare.CompareResult.EQUAL).setLease(0)));
        // a prefix compare's range end, and "\0" (from the key on)
        assertTrue(holds(Compare.newBuilder().setKey(b("rc/")).setRangeEnd(ByteString.copyFrom(new byte[] {0}))
            .setTarget(Compare.CompareTarget.CREATE).setResult(Compare.CompareResult.GREATER).setCreateRevision(0)));
    }

    @Test
    void aNegativeOperandComparesAsEtcdsSignedNumbers()
    {
        kv().put(PutRequest.newBuilder().setKey(b("nc/a")).setValue(b("1")).build());
        final Compare.Builder present = Compare.newBuilder().setKey(b("nc/a"));
        final Compare.Builder missing = Compare.newBuilder().setKey(b("nc/missing"));
        assertTrue(holds(present.clone().setTarget(Compare.CompareTarget.VERSION).setResult(Compare.CompareResult.GREATER).setVersion(-1)));
        assertTrue(holds(missing.clone().setTarget(Compare.CompareTarget.MOD).setResult(Compare.CompareResult.NOT_EQUAL).setModRevision(-5)));
        assertFalse(holds(present.clone().setTarget(Compare.CompareTarget.CREATE).setResult(Compare.CompareResult.LESS).setCreateRevision(-1)));
        assertFalse(holds(missing.clone().setTarget(Compare.CompareTarget.VERSION).setResult(Compare.CompareResult.EQUAL).setVersion(-1)));
        assertTrue(holds(present.clone().setTarget(Compare.CompareTarget.LEASE).setResult(Compare.CompareResult.GREATER).setLease(-1)));
        assertTrue(holds(Compare.newBuilder().setKey(b("nc/")).setRangeEnd(b("nc0")).setTarget(Compare.CompareTarget.VERSION)
            .setResult(Compare.CompareResult.GREATER).setVersion(-1)));
        assertFalse(holds(Compare.newBuilder().setKey(b("nc/")).setRangeEnd(b("nc0")).setTarget(Compare.CompareTarget.MOD)
            .setResult(Compare.CompareResult.LESS).setModRevision(-1)));
    }

    private static RequestOp.Builder put(final String key)
    {
        return RequestOp.newBuilder().setRequestPut(PutRequest.newBuilder().setKey(b(key)).setValue(b("v")));
    }

    private static RequestOp.Builder delete(final String key, final String end)
    {
        return RequestOp.newBuilder().setRequestDeleteRange(DeleteRangeRequest.newBuilder().setKey(b(key)).setRangeEnd(b(end)));
    }

    @Test
    void aPutInsideADeletedRangeOfTheSameTxnIsADuplicateKey()
    {
        final String duplicate = "INVALID_ARGUMENT etcdserver: duplicate key given in txn request";
        assertEquals(duplicate, err(() -> kv().txn(TxnRequest.newBuilder().addSuccess(put("dr/b")).addSuccess(delete("dr/a", "dr/c")).build())));
        assertEquals(duplicate, err(() -> kv().txn(TxnRequest.newBuilder().addSuccess(delete("dr/a", "dr/c"))
            .addSuccess(RequestOp.newBuilder().setRequestTxn(TxnRequest.newBuilder().addFailure(put("dr/b")))).build())));
        assertTrue(kv().txn(TxnRequest.newBuilder().addSuccess(delete("dr/a", "dr/c")).addSuccess(delete("dr/b", "dr/d")).build()).getSucceeded(),
            "overlapping deletes are allowed");
        assertTrue(kv().txn(TxnRequest.newBuilder().addSuccess(put("dr/c")).addSuccess(delete("dr/a", "dr/c")).build()).getSucceeded(),
            "the range end is not in the range");
        assertTrue(kv().txn(TxnRequest.newBuilder().addSuccess(put("dr/b")).addFailure(delete("dr/a", "dr/c")).build()).getSucceeded(),
            "then and else are apart");
    }
}
