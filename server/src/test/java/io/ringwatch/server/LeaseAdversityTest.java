package io.ringwatch.server;

import com.google.protobuf.ByteString;
import io.grpc.ClientCall;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.server.api.etcdserverpb.Compare;
import io.ringwatch.server.api.etcdserverpb.KVGrpc;
import io.ringwatch.server.api.etcdserverpb.LeaseGrantRequest;
import io.ringwatch.server.api.etcdserverpb.LeaseGrpc;
import io.ringwatch.server.api.etcdserverpb.LeaseKeepAliveRequest;
import io.ringwatch.server.api.etcdserverpb.LeaseKeepAliveResponse;
import io.ringwatch.server.api.etcdserverpb.LeaseLeasesRequest;
import io.ringwatch.server.api.etcdserverpb.LeaseRevokeRequest;
import io.ringwatch.server.api.etcdserverpb.LeaseStatus;
import io.ringwatch.server.api.etcdserverpb.LeaseTimeToLiveRequest;
import io.ringwatch.server.api.etcdserverpb.LeaseTimeToLiveResponse;
import io.ringwatch.server.api.etcdserverpb.PutRequest;
import io.ringwatch.server.api.etcdserverpb.RangeRequest;
import io.ringwatch.server.api.etcdserverpb.RequestOp;
import io.ringwatch.server.api.etcdserverpb.TxnRequest;
import io.ringwatch.server.api.etcdserverpb.WatchCreateRequest;
import io.ringwatch.server.api.mvccpb.Event;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Lease service under clients that misbehave, as etcd's known lease failures were found:
 * client-chosen ids that exist, are 0 or negative; revokes and keep-alives of unknown leases;
 * keep-alive streams abandoned with renewals in flight; a client pipelining keep-alives without
 * reading the answers (the server must stop reading rather than buffer every answer, as etcd's
 * blocking {@code stream.Send} does); TimeToLive of a lease with many keys; a transaction's put
 * naming a lease already due. The lease clock is the test's; waits are liveness bounds only.
 */
class LeaseAdversityTest
{
    private static final long WAIT_SECONDS = 30;
    private static final AtomicLong NOW_MILLIS = new AtomicLong(1_000_000);
    @RegisterExtension
    static final ServerFixture fixture = new ServerFixture(RingWatchConfig.builder().name("lease-adversity")
        .leaseMinTtlSeconds(1).leaseCheckInterval(Duration.ofMillis(20)).leaseClock(NOW_MILLIS::get).build());

    private static LeaseGrpc.LeaseBlockingStub leases()
    {
        return LeaseGrpc.newBlockingStub(fixture.channel);
    }

    private static KVGrpc.KVBlockingStub kv()
    {
        return KVGrpc.newBlockingStub(fixture.channel);
    }

    private static ByteString b(final String s)
    {
        return ByteString.copyFromUtf8(s);
    }

    private static long grant(final long id, final long ttl)
    {
        return leases().leaseGrant(LeaseGrantRequest.newBuilder().setID(id).setTTL(ttl).build()).getID();
    }

    @Test
    void grantTakesAClientsIdNegativeOnesIncludedRefusesOneInUseAndChoosesOneForZero()
    {
        assertEquals(-77, grant(-77, 30), "etcd grants any id but 0");
        final StatusRuntimeException exists = assertThrows(StatusRuntimeException.class, () -> grant(-77, 30));
        assertEquals(Status.Code.FAILED_PRECONDITION, exists.getStatus().getCode());
        assertEquals("etcdserver: lease already exists", exists.getStatus().getDescription());
        final long chosen = grant(0, 30);
        assertTrue(chosen > 0, "etcd chooses positive ids");
        final List<Long> listed = leases().leaseLeases(LeaseLeasesRequest.getDefaultInstance()).getLeasesList().stream()
            .map(LeaseStatus::getID).toList();
        assertTrue(listed.contains(-77L) && listed.contains(chosen), listed::toString);

        kv().put(PutRequest.newBuilder().setKey(b("neg/a")).setValue(b("1")).setLease(-77).build());
        assertEquals(-77, kv().range(RangeRequest.newBuilder().setKey(b("neg/a")).build()).getKvs(0).getLease());
        leases().leaseRevoke(LeaseRevokeRequest.newBuilder().setID(-77).build());
        assertEquals(0, kv().range(RangeRequest.newBuilder().setKey(b("neg/a")).build()).getCount());
    }

    @Test
    void revokeOfAnUnknownLeaseIsEtcdsNotFound()
    {
        final StatusRuntimeException missing = assertThrows(StatusRuntimeException.class,
            () -> leases().leaseRevoke(LeaseRevokeRequest.newBuilder().setID(987_654_321).build()));
        assertEquals(Status.Code.NOT_FOUND, missing.getStatus().getCode());
        assertEquals("etcdserver: requested lease not found", missing.getStatus().getDescription());
    }

    @Test
    void timeToLiveWithKeysListsEveryKeyOfALeaseWithManyInKeyOrder()
    {
        final long lease = grant(0, 600);
        final int keys = 20_000;
        final List<String> expected = new ArrayList<>(keys);
        for (int i = keys - 1; i >= 0; i--)
        {
            fixture.engine.write(io.ringwatch.engine.kv.Op.put(String.format("many/%06d", i), "v").withLease(lease));
        }
        for (int i = 0; i < keys; i++)
        {
            expected.add(String.format("many/%06d", i));
        }
        final LeaseTimeToLiveResponse left = leases().leaseTimeToLive(
            LeaseTimeToLiveRequest.newBuilder().setID(lease).setKeys(true).build());
        assertEquals(600, left.getGrantedTTL());
        assertEquals(expected, left.getKeysList().stream().map(ByteString::toStringUtf8).toList());
        assertEquals(0, leases().leaseTimeToLive(LeaseTimeToLiveRequest.newBuilder().setID(lease).build()).getKeysCount(),
            "keys only when asked");
        leases().leaseRevoke(LeaseRevokeRequest.newBuilder().setID(lease).build());
        assertEquals(-1, leases().leaseTimeToLive(LeaseTimeToLiveRequest.newBuilder().setID(lease).setKeys(true).build()).getTTL());
    }

    @Test
    void aTxnPutNamingALeaseAlreadyDueLeavesNoKeyOnceTheLeaseHasEnded() throws Exception
    {
        for (int round = 0; round < 50; round++)
        {
            final String key = "due/" + round;
            final long lease = grant(0, 1);
            NOW_MILLIS.addAndGet(1_000);
            final TxnRequest txn = TxnRequest.newBuilder()
                .addCompare(Compare.newBuilder().setKey(b(key)).setTarget(Compare.CompareTarget.VERSION).setVersion(0))
                .addSuccess(RequestOp.newBuilder().setRequestPut(PutRequest.newBuilder().setKey(b(key)).setValue(b("v"))
                    .setLease(lease)))
                .build();
            try
            {
                kv().txn(txn);
            }
            catch (final StatusRuntimeException e)
            {
                assertEquals("etcdserver: requested lease not found", e.getStatus().getDescription(), "round " + round);
            }
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
            while (leases().leaseTimeToLive(LeaseTimeToLiveRequest.newBuilder().setID(lease).build()).getTTL() != -1
                && System.nanoTime() < deadline)
            {
                Thread.sleep(5);
            }
            assertEquals(0, kv().range(RangeRequest.newBuilder().setKey(b(key)).build()).getCount(),
                "round " + round + ": the key put under a due lease went with it, or never came");
        }
    }

    @Test
    void anExpiryReachesALiveAndACatchingUpWatchAsOneRevisionWithPrevKv() throws Exception
    {
        final long lease = grant(0, 1);
        final long before = fixture.engine.currentRevision();
        for (int i = 0; i < 50; i++)
        {
            kv().put(PutRequest.newBuilder().setKey(b(String.format("ex/%02d", i))).setValue(b("v" + i)).setLease(lease).build());
        }
        try (RawWatchStream live = new RawWatchStream(fixture.channel, true))
        {
            live.create(WatchCreateRequest.newBuilder().setKey(b("ex/")).setRangeEnd(b("ex0")).setPrevKv(true).setWatchId(1));
            assertTrue(live.next().getCreated());
            NOW_MILLIS.addAndGet(1_000);
            final List<Event> deletes = new ArrayList<>();
            while (deletes.size() < 50)
            {
                deletes.addAll(live.next().getEventsList());
            }
            assertExpiry(deletes, lease);
        }
        try (RawWatchStream catchingUp = new RawWatchStream(fixture.channel, true))
        {
            catchingUp.create(WatchCreateRequest.newBuilder().setKey(b("ex/")).setRangeEnd(b("ex0")).setPrevKv(true)
                .setStartRevision(before + 1).setWatchId(2));
            assertTrue(catchingUp.next().getCreated());
            final List<Event> events = new ArrayList<>();
            while (events.size() < 100)
            {
                events.addAll(catchingUp.next().getEventsList());
            }
            assertTrue(events.subList(0, 50).stream().allMatch(e -> e.getType() == Event.EventType.PUT));
            assertExpiry(events.subList(50, 100), lease);
        }
    }

    private static void assertExpiry(final List<Event> deletes, final long lease)
    {
        final long revision = deletes.get(0).getKv().getModRevision();
        for (int i = 0; i < deletes.size(); i++)
        {
            final Event delete = deletes.get(i);
            assertEquals(Event.EventType.DELETE, delete.getType());
            assertEquals(revision, delete.getKv().getModRevision(), "one revision for the lease's keys");
            assertEquals(String.format("ex/%02d", i), delete.getKv().getKey().toStringUtf8(), "in key order");
            assertEquals(lease, delete.getPrevKv().getLease());
            assertEquals("v" + i, delete.getPrevKv().getValue().toStringUtf8());
        }
    }

    @Test
    void aKeepAliveStreamWhoseEngineClosesEndsWithAnErrorAndLeaseCallsFailWithoutHanging() throws Exception
    {
        final ServerFixture own = new ServerFixture(RingWatchConfig.builder().name("lease-close").build()).start();
        try
        {
            final long lease = LeaseGrpc.newBlockingStub(own.channel).leaseGrant(LeaseGrantRequest.newBuilder().setTTL(60).build()).getID();
            final RawKeepAlive stream = new RawKeepAlive(own.channel);
            stream.call.request(Integer.MAX_VALUE);
            stream.send(lease);
            assertEquals(60, stream.answers.poll(WAIT_SECONDS, TimeUnit.SECONDS).getTTL());

            own.engine.close();
            stream.send(lease);
            assertTrue(stream.closed.await(WAIT_SECONDS, TimeUnit.SECONDS), "the stream ends once the engine refuses a renewal");
            assertEquals(Status.Code.UNAVAILABLE, stream.status.get().getCode(), stream.status.get()::toString);
            assertEquals("etcdserver: server stopped", stream.status.get().getDescription());
            final StatusRuntimeException revoke = assertThrows(StatusRuntimeException.class,
                () -> LeaseGrpc.newBlockingStub(own.channel).withDeadlineAfter(WAIT_SECONDS, TimeUnit.SECONDS)
                    .leaseRevoke(LeaseRevokeRequest.newBuilder().setID(lease).build()));
            assertEquals(Status.Code.UNAVAILABLE, revoke.getStatus().getCode(), revoke::toString);
        }
        finally
        {
            own.close();
        }
    }

    @Test
    void aKeepAliveAsItsLeaseExpiresIsTtlZeroOnlyOnceTheKeysAreGone() throws Exception
    {
        final RawKeepAlive stream = new RawKeepAlive(fixture.channel);
        stream.call.request(Integer.MAX_VALUE);
        for (int round = 0; round < 100; round++)
        {
            final String key = "ka/" + round;
            final long lease = grant(0, 1);
            kv().put(PutRequest.newBuilder().setKey(b(key)).setValue(b("v")).setLease(lease).build());
            // Due now: the timer (every 20 ms) and this keep-alive race for the writer.
            NOW_MILLIS.addAndGet(1_000);
            stream.send(lease);
            final LeaseKeepAliveResponse answer = stream.answers.poll(WAIT_SECONDS, TimeUnit.SECONDS);
            assertNotNull(answer, "round " + round);
            assertEquals(0, answer.getTTL(), "round " + round + ": a due lease is not renewed");
            assertEquals(0, kv().range(RangeRequest.newBuilder().setKey(b(key)).build()).getCount(),
                "round " + round + ": TTL 0 means the lease's keys are gone");
            assertEquals(-1, leases().leaseTimeToLive(LeaseTimeToLiveRequest.newBuilder().setID(lease).build()).getTTL());
        }
        stream.call.halfClose();
    }

    @Test
    void keepAlivesPipelinedWithoutReadingTheAnswersAreHeldBackThenAllAnswered() throws Exception
    {
        final long lease = grant(0, 60);
        final ManagedChannel channel = fixture.channelWithWindow(64 * 1024);
        final int most = 2_000_000;
        final RawKeepAlive stream = new RawKeepAlive(channel);
        final ClientCall<LeaseKeepAliveRequest, LeaseKeepAliveResponse> call = stream.call;
        // The client asks for no answer: each one the server sends waits in its buffers.
        final LeaseKeepAliveRequest request = LeaseKeepAliveRequest.newBuilder().setID(lease).build();
        int sent = 0;
        while (sent < most)
        {
            if (call.isReady())
            {
                call.sendMessage(request);
                sent++;
            }
            else if (!stream.ready.tryAcquire(3, TimeUnit.SECONDS) && !call.isReady())
            {
                break;
            }
        }
        assertTrue(sent < most, "the server stopped reading requests it could not answer (it took all " + sent + ")");
        // Held, not merely slow: a server that goes on reading (and buffering answers) takes more.
        Thread.sleep(5_000);
        int more = 0;
        while (call.isReady() && more < most)
        {
            call.sendMessage(request);
            more++;
        }
        assertTrue(more <= 1_000, "the server went on reading while no answer could go out: " + more + " more");
        sent += more;

        call.halfClose();
        call.request(Integer.MAX_VALUE);
        assertTrue(stream.closed.await(WAIT_SECONDS * 4, TimeUnit.SECONDS), "every request answered, then the stream ends");
        assertEquals(Status.Code.OK, stream.status.get().getCode(), stream.status.get()::toString);
        assertEquals(sent, stream.answers.size());
        assertTrue(stream.answers.stream().allMatch(a -> a.getID() == lease && a.getTTL() == 60));
        System.out.printf("pipelined keep-alives: the server held the client at %d requests%n", sent);
    }

    @Test
    void keepAliveStreamsAbandonedWithRenewalsInFlightLeaveTheServerServing() throws Exception
    {
        final long lease = grant(0, 60);
        for (int stream = 0; stream < 40; stream++)
        {
            final ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", fixture.server.port()).usePlaintext().build();
            final RawKeepAlive abandoned = new RawKeepAlive(channel);
            abandoned.call.request(1);
            for (int i = 0; i < 2_000; i++)
            {
                abandoned.send(i % 2 == 0 ? lease : 424_242);
            }
            assertNotNull(abandoned.answers.poll(WAIT_SECONDS, TimeUnit.SECONDS));
            if (stream % 2 == 0)
            {
                abandoned.call.cancel("abandoned", null);
                channel.shutdown();
            }
            else
            {
                channel.shutdownNow();
            }
            assertTrue(channel.awaitTermination(WAIT_SECONDS, TimeUnit.SECONDS));
        }
        final RawKeepAlive fresh = new RawKeepAlive(fixture.channel);
        fresh.call.request(2);
        fresh.send(lease);
        fresh.send(424_242);
        final LeaseKeepAliveResponse renewed = fresh.answers.poll(WAIT_SECONDS, TimeUnit.SECONDS);
        final LeaseKeepAliveResponse unknown = fresh.answers.poll(WAIT_SECONDS, TimeUnit.SECONDS);
        assertNotNull(unknown, "a new stream is served after the abandoned ones");
        assertEquals(60, renewed.getTTL());
        assertEquals(0, unknown.getTTL(), "an unknown lease is TTL 0 on the stream, no error (etcd)");
        fresh.call.halfClose();
    }
}
