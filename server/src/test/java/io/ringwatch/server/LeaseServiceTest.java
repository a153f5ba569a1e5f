package io.ringwatch.server;

import com.google.protobuf.ByteString;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.Lease;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.lease.LeaseKeepAliveResponse;
import io.etcd.jetcd.lease.LeaseTimeToLiveResponse;
import io.etcd.jetcd.options.LeaseOption;
import io.etcd.jetcd.options.PutOption;
import io.etcd.jetcd.options.WatchOption;
import io.etcd.jetcd.watch.WatchEvent;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.server.api.etcdserverpb.Compare;
import io.ringwatch.server.api.etcdserverpb.KVGrpc;
import io.ringwatch.server.api.etcdserverpb.LeaseGrantRequest;
import io.ringwatch.server.api.etcdserverpb.LeaseGrpc;
import io.ringwatch.server.api.etcdserverpb.LeaseKeepAliveRequest;
import io.ringwatch.server.api.etcdserverpb.LeaseLeasesRequest;
import io.ringwatch.server.api.etcdserverpb.LeaseStatus;
import io.ringwatch.server.api.etcdserverpb.PutRequest;
import io.ringwatch.server.api.etcdserverpb.RangeRequest;
import io.ringwatch.server.api.etcdserverpb.RequestOp;
import io.ringwatch.server.api.etcdserverpb.TxnRequest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static io.ringwatch.server.ServerFixture.bytes;
import static io.ringwatch.server.ServerFixture.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * etcd's Lease service and the lease fields of KV and Watch, through jetcd's Lease client and,
 * for what jetcd does not send (a client-chosen id, LeaseLeases, ignore_lease, lease compares),
 * the raw stub. The engine's lease clock is the test's, moved by hand (so no TTL runs out while a
 * slow machine runs a test), with a minimum TTL of 1 s and expiry checks every 50 ms.
 */
class LeaseServiceTest
{
    private static final long WAIT_SECONDS = 20;

    private static final AtomicLong NOW_MILLIS = new AtomicLong();
    @RegisterExtension
    static final ServerFixture fixture = new ServerFixture(RingWatchConfig.builder().name("lease-test")
        .leaseMinTtlSeconds(1).leaseCheckInterval(Duration.ofMillis(50)).leaseClock(NOW_MILLIS::get).build());
    private static Lease lease;
    private static KV kv;
    private static LeaseGrpc.LeaseBlockingStub leaseStub;
    private static KVGrpc.KVBlockingStub kvStub;

    @BeforeAll
    static void start()
    {
        lease = fixture.client.getLeaseClient();
        kv = fixture.client.getKVClient();
        leaseStub = LeaseGrpc.newBlockingStub(fixture.channel);
        kvStub = KVGrpc.newBlockingStub(fixture.channel);
    }

    @Test
    void grantChoosesAnIdOrTakesTheClientsAndListsThem() throws Exception
    {
        final long chosen = lease.grant(60).get().getID();
        assertTrue(chosen > 0);
        assertEquals(4242, leaseStub.leaseGrant(LeaseGrantRequest.newBuilder().setID(4242).setTTL(30).build()).getID());
        final List<Long> listed = leaseStub.leaseLeases(LeaseLeasesRequest.getDefaultInstance()).getLeasesList().stream()
            .map(LeaseStatus::getID).toList();
        assertTrue(listed.contains(chosen) && listed.contains(4242L), listed::toString);

        final StatusRuntimeException exists = assertThrows(StatusRuntimeException.class,
            () -> leaseStub.leaseGrant(LeaseGrantRequest.newBuilder().setID(4242).setTTL(30).build()));
        assertEquals(Status.Code.FAILED_PRECONDITION, exists.getStatus().getCode());
        assertEquals("etcdserver: lease already exists", exists.getStatus().getDescription());
        final StatusRuntimeException tooLarge = assertThrows(StatusRuntimeException.class,
            () -> leaseStub.leaseGrant(LeaseGrantRequest.newBuilder().setTTL(9_000_000_001L).build()));
        assertEquals(Status.Code.OUT_OF_RANGE, tooLarge.getStatus().getCode());
        assertEquals("etcdserver: too large lease TTL", tooLarge.getStatus().getDescription());
        assertEquals(1, lease.grant(0).get().getTTL(), "below the minimum: raised to it");
    }

    @Test
    void aPutWithALeaseShowsItInRangesAndTimeToLiveListsItsKeys() throws Exception
    {
        final long id = lease.grant(60).get().getID();
        kv.put(bytes("lk/a"), bytes("1"), PutOption.builder().withLeaseId(id).build()).get();
        kv.put(bytes("lk/b"), bytes("2"), PutOption.builder().withLeaseId(id).build()).get();

        assertEquals(id, kv.get(bytes("lk/a")).get().getKvs().get(0).getLease());
        final LeaseTimeToLiveResponse left = lease.timeToLive(id, LeaseOption.builder().withAttachedKeys().build()).get();
        assertEquals(60, left.getGrantedTTL());
        assertEquals(60, left.getTTL(), "no time passed on the lease clock");
        assertEquals(List.of("lk/a", "lk/b"), left.getKeys().stream().map(ServerFixture::text).toList());
    }

    @Test
    void aPutNamingAnUnknownLeaseIsRefusedAndChangesNothing()
    {
        final long before = fixture.engine.currentRevision();
        final Status status = KvServiceTest.error(kv.put(bytes("lu/a"), bytes("1"), PutOption.builder().withLeaseId(987654).build()));
        assertEquals(Status.Code.NOT_FOUND, status.getCode());
        assertEquals("etcdserver: requested lease not found", status.getDescription());
        final StatusRuntimeException inTxn = assertThrows(StatusRuntimeException.class, () -> kvStub.txn(TxnRequest.newBuilder()
            .addSuccess(put("lu/b", 0, false)).addSuccess(put("lu/c", 987654, false)).build()));
        assertEquals("etcdserver: requested lease not found", inTxn.getStatus().getDescription());
        assertEquals(before, fixture.engine.currentRevision());
    }

    @Test
    void revokeDeletesTheLeasesKeysInOneRevisionSeenByAWatchWithPrevKv() throws Exception
    {
        final long id = lease.grant(60).get().getID();
        kv.put(bytes("lr/a"), bytes("1"), PutOption.builder().withLeaseId(id).build()).get();
        kv.put(bytes("lr/b"), bytes("2"), PutOption.builder().withLeaseId(id).build()).get();
        kv.put(bytes("lr/c"), bytes("3")).get();
        final BlockingQueue<WatchEvent> events = new LinkedBlockingQueue<>();
        try (Watch.Watcher ignored = fixture.client.getWatchClient().watch(bytes("lr/"),
            WatchOption.builder().isPrefix(true).withPrevKV(true).withRevision(fixture.engine.currentRevision() + 1).build(),
            response -> events.addAll(response.getEvents())))
        {
            final long revision = lease.revoke(id).get().getHeader().getRevision();

            final List<WatchEvent> deletes = List.of(take(events), take(events));
            for (final WatchEvent delete : deletes)
            {
                assertEquals(WatchEvent.EventType.DELETE, delete.getEventType());
                assertEquals(revision, delete.getKeyValue().getModRevision(), "one revision for every key of the lease");
                assertEquals(id, delete.getPrevKV().getLease());
            }
            assertEquals(List.of("lr/a=1", "lr/b=2"), deletes.stream()
                .map(e -> text(e.getPrevKV().getKey()) + "=" + text(e.getPrevKV().getValue())).toList());
        }
        assertEquals(1, kv.get(bytes("lr/"), io.etcd.jetcd.options.GetOption.builder().isPrefix(true).build()).get().getCount());

        final Status again = KvServiceTest.error(lease.revoke(id));
        assertEquals(Status.Code.NOT_FOUND, again.getCode());
        assertEquals("etcdserver: requested lease not found", again.getDescription());
        assertEquals(-1, lease.timeToLive(id, LeaseOption.DEFAULT).get().getTTL(), "etcd: TTL -1 for a lease it does not know");
    }

    @Test
    void keepAliveRenewsOnTheStreamAndAnswersTtlZeroForAnUnknownLease() throws Exception
    {
        final long id = lease.grant(30).get().getID();
        assertEquals(30, lease.keepAliveOnce(id).get().getTTL());

        final BlockingQueue<LeaseKeepAliveResponse> renewed = new LinkedBlockingQueue<>();
        try (var ignored = lease.keepAlive(id, observer(renewed)))
        {
            final LeaseKeepAliveResponse first = renewed.poll(WAIT_SECONDS, TimeUnit.SECONDS);
            assertNotNull(first, "no keep-alive answer");
            assertEquals(id, first.getID());
            assertEquals(30, first.getTTL());
        }

        final BlockingQueue<io.ringwatch.server.api.etcdserverpb.LeaseKeepAliveResponse> raw = new LinkedBlockingQueue<>();
        final StreamObserver<LeaseKeepAliveRequest> stream = LeaseGrpc.newStub(fixture.channel).leaseKeepAlive(observer(raw));
        stream.onNext(LeaseKeepAliveRequest.newBuilder().setID(id).build());
        stream.onNext(LeaseKeepAliveRequest.newBuilder().setID(123456789).build());
        stream.onCompleted();
        final var known = raw.poll(WAIT_SECONDS, TimeUnit.SECONDS);
        final var unknown = raw.poll(WAIT_SECONDS, TimeUnit.SECONDS);
        assertNotNull(unknown, "renewals in flight when the client half-closes are still answered");
        assertEquals(30, known.getTTL());
        assertEquals(123456789, unknown.getID());
        assertEquals(0, unknown.getTTL(), "etcd answers TTL 0 for a lease it does not know, not an error");
    }

    @Test
    void aLeaseWithAShortTtlExpiresAndItsKeysAreDeleted() throws Exception
    {
        final long id = lease.grant(1).get().getID();
        kv.put(bytes("le/a"), bytes("1"), PutOption.builder().withLeaseId(id).build()).get();
        final BlockingQueue<WatchEvent> events = new LinkedBlockingQueue<>();
        try (Watch.Watcher ignored = fixture.client.getWatchClient().watch(bytes("le/a"),
            WatchOption.builder().withPrevKV(true).withRevision(fixture.engine.currentRevision()).build(),
            response -> events.addAll(response.getEvents())))
        {
            final WatchEvent put = take(events);
            assertEquals(WatchEvent.EventType.PUT, put.getEventType());
            assertEquals(id, put.getKeyValue().getLease(), "a watch event carries the key's lease");
            NOW_MILLIS.addAndGet(1_000);
            final WatchEvent expired = take(events);
            assertEquals(WatchEvent.EventType.DELETE, expired.getEventType());
            assertEquals(id, expired.getPrevKV().getLease());
        }
        assertEquals(0, kv.get(bytes("le/a")).get().getCount());
        assertFalse(leaseStub.leaseLeases(LeaseLeasesRequest.getDefaultInstance()).getLeasesList().stream()
            .anyMatch(status -> status.getID() == id));
        assertEquals(0, lease.keepAliveOnce(id).handle((response, error) -> error == null ? response.getTTL() : 0L).get(),
            "an expired lease is not renewed");
    }

    @Test
    void ignoreLeaseKeepsTheLeaseAndAPutWithoutOneDetachesTheKey() throws Exception
    {
        final long id = lease.grant(60).get().getID();
        kvStub.put(put("li/a", id, false).getRequestPut());
        kvStub.put(put("li/a", 0, true).getRequestPut());
        assertEquals(id, kv.get(bytes("li/a")).get().getKvs().get(0).getLease(), "ignore_lease keeps it");
        kvStub.txn(TxnRequest.newBuilder().addSuccess(put("li/a", 0, true)).build());
        assertEquals(id, kv.get(bytes("li/a")).get().getKvs().get(0).getLease(), "ignore_lease inside a txn keeps it");

        final Compare leaseIs = Compare.newBuilder().setKey(ByteString.copyFromUtf8("li/a"))
            .setTarget(Compare.CompareTarget.LEASE).setResult(Compare.CompareResult.EQUAL).setLease(id).build();
        assertTrue(kvStub.txn(TxnRequest.newBuilder().addCompare(leaseIs).build()).getSucceeded(), "a lease compare sees the lease");

        kv.put(bytes("li/a"), bytes("plain")).get();
        assertEquals(0, kv.get(bytes("li/a")).get().getKvs().get(0).getLease(), "a put without a lease detaches the key");
        assertFalse(kvStub.txn(TxnRequest.newBuilder().addCompare(leaseIs).build()).getSucceeded());
        assertEquals(0, lease.timeToLive(id, LeaseOption.builder().withAttachedKeys().build()).get().getKeys().size());

        final StatusRuntimeException absent = assertThrows(StatusRuntimeException.class,
            () -> kvStub.put(put("li/absent", 0, true).getRequestPut()));
        assertEquals("etcdserver: key not found", absent.getStatus().getDescription());
        assertEquals(0, kvStub.range(RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8("li/absent")).build()).getCount());
    }

    private static RequestOp put(final String key, final long leaseId, final boolean ignoreLease)
    {
        return RequestOp.newBuilder().setRequestPut(PutRequest.newBuilder().setKey(ByteString.copyFromUtf8(key))
            .setValue(ByteString.copyFromUtf8("v")).setLease(leaseId).setIgnoreLease(ignoreLease)).build();
    }

    private static WatchEvent take(final BlockingQueue<WatchEvent> events) throws InterruptedException
    {
        final WatchEvent event = events.poll(WAIT_SECONDS, TimeUnit.SECONDS);
        assertNotNull(event, "no event within " + WAIT_SECONDS + " s");
        return event;
    }

    private static <T> StreamObserver<T> observer(final BlockingQueue<T> into)
    {
        return new StreamObserver<>()
        {
            @Override
            public void onNext(final T value)
            {
                into.add(value);
            }

            @Override
            public void onError(final Throwable t)
            {
            }

            @Override
            public void onCompleted()
            {
            }
        };
    }
}
