package io.ringwatch.server;

import com.google.protobuf.ByteString;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.persistence.LogConfig;
import io.ringwatch.server.api.etcdserverpb.Compare;
import io.ringwatch.server.api.etcdserverpb.CompactionRequest;
import io.ringwatch.server.api.etcdserverpb.KVGrpc;
import io.ringwatch.server.api.etcdserverpb.LeaseGrantRequest;
import io.ringwatch.server.api.etcdserverpb.LeaseGrpc;
import io.ringwatch.server.api.etcdserverpb.LeaseRevokeRequest;
import io.ringwatch.server.api.etcdserverpb.LeaseTimeToLiveRequest;
import io.ringwatch.server.api.etcdserverpb.LeaseTimeToLiveResponse;
import io.ringwatch.server.api.etcdserverpb.PutRequest;
import io.ringwatch.server.api.etcdserverpb.RangeRequest;
import io.ringwatch.server.api.etcdserverpb.RequestOp;
import io.ringwatch.server.api.etcdserverpb.TxnRequest;
import io.ringwatch.server.api.etcdserverpb.WatchCreateRequest;
import io.ringwatch.server.api.etcdserverpb.WatchResponse;
import io.ringwatch.server.rpc.EtcdErrors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What etcd 3.5.22 does with negative ids and revisions, read in its source: a LeaseGrant with a
 * negative ID is granted (its server picks an id only for 0, its lessor refuses only 0), so puts,
 * compares and revokes take it; a put naming an unknown negative lease is "requested lease not
 * found". A watch's negative start revision is created and, below the compaction mark (mvcc
 * compactMainRev: -1 never compacted, 0 after Compact(0)), cancelled as compacted at the mark
 * (mvcc chooseAll; v3rpc's sendLoop sets canceled only for a mark other than 0); -1 on a store
 * never compacted syncs from now. The mark is kept across a restart on a data directory. Each test
 * has its own server: Compact changes the mark for good.
 */
class EtcdMarksTest
{
    @TempDir
    Path dir;

    private static ByteString b(final String s)
    {
        return ByteString.copyFromUtf8(s);
    }

    private static String error(final Runnable call)
    {
        final StatusRuntimeException e = assertThrows(StatusRuntimeException.class, call::run);
        return e.getStatus().getCode() + " " + e.getStatus().getDescription();
    }

    private static final String COMPACTED = "OUT_OF_RANGE " + EtcdErrors.COMPACTED_MESSAGE;

    @Test
    void aNegativeLeaseIdIsGrantedAttachedComparedAndRevoked() throws Exception
    {
        try (ServerFixture fixture = new ServerFixture().start())
        {
            final LeaseGrpc.LeaseBlockingStub lease = LeaseGrpc.newBlockingStub(fixture.channel);
            final KVGrpc.KVBlockingStub kv = KVGrpc.newBlockingStub(fixture.channel);
            assertEquals(-5, lease.leaseGrant(LeaseGrantRequest.newBuilder().setID(-5).setTTL(60).build()).getID());
            assertEquals("FAILED_PRECONDITION etcdserver: lease already exists",
                error(() -> lease.leaseGrant(LeaseGrantRequest.newBuilder().setID(-5).setTTL(60).build())));
            kv.put(PutRequest.newBuilder().setKey(b("nl/a")).setValue(b("1")).setLease(-5).build());
            assertEquals(-5, kv.range(RangeRequest.newBuilder().setKey(b("nl/a")).build()).getKvs(0).getLease());
            final long before = fixture.engine.currentRevision();
            assertEquals("NOT_FOUND etcdserver: requested lease not found",
                error(() -> kv.put(PutRequest.newBuilder().setKey(b("nl/b")).setValue(b("1")).setLease(-6).build())));
            assertEquals(before, fixture.engine.currentRevision());

            final Compare.Builder onLease = Compare.newBuilder().setKey(b("nl/a")).setTarget(Compare.CompareTarget.LEASE);
            assertTrue(holds(kv, onLease.clone().setResult(Compare.CompareResult.EQUAL).setLease(-5)));
            assertFalse(holds(kv, onLease.clone().setResult(Compare.CompareResult.GREATER).setLease(-1)), "etcd compares signed numbers");
            assertTrue(holds(kv, onLease.clone().setResult(Compare.CompareResult.LESS).setLease(-4)));
            assertTrue(holds(kv, onLease.clone().setResult(Compare.CompareResult.NOT_EQUAL).setLease(-6)));

            final LeaseTimeToLiveResponse left = lease.leaseTimeToLive(LeaseTimeToLiveRequest.newBuilder().setID(-5).setKeys(true).build());
            assertTrue(left.getTTL() > 0, left::toString);
            assertEquals(b("nl/a"), left.getKeys(0));
            lease.leaseRevoke(LeaseRevokeRequest.newBuilder().setID(-5).build());
            assertEquals(0, kv.range(RangeRequest.newBuilder().setKey(b("nl/a")).build()).getCount(), "revoked with its lease");
        }
    }

    private static boolean holds(final KVGrpc.KVBlockingStub kv, final Compare.Builder compare)
    {
        return kv.txn(TxnRequest.newBuilder().addCompare(compare).build()).getSucceeded();
    }

    @Test
    void negativeWatchStartsFollowEtcdsCompactionMark() throws Exception
    {
        try (ServerFixture fixture = new ServerFixture().start();
             RawWatchStream stream = new RawWatchStream(fixture.channel, true))
        {
            final KVGrpc.KVBlockingStub kv = KVGrpc.newBlockingStub(fixture.channel);
            kv.put(PutRequest.newBuilder().setKey(b("nw/a")).setValue(b("0")).build());

            // Never compacted (mark -1): -1 is no compaction, the watch syncs from now.
            stream.create(WatchCreateRequest.newBuilder().setKey(b("nw/a")).setStartRevision(-1).setWatchId(1));
            final WatchResponse fromNow = stream.next();
            assertTrue(fromNow.getCreated() && !fromNow.getCanceled(), fromNow::toString);
            assertEquals(1, fromNow.getWatchId());
            final long put = kv.put(PutRequest.newBuilder().setKey(b("nw/a")).setValue(b("1")).build()).getHeader().getRevision();
            final WatchResponse event = stream.next();
            assertEquals(1, event.getWatchId(), event::toString);
            assertEquals(put, event.getEvents(0).getKv().getModRevision(), "only what comes after: " + event);

            // Below the mark: created, then compacted at -1 (canceled, header revision 0).
            assertCreatedThenCompacted(stream, -2, 2, -1, true);
            stream.create(WatchCreateRequest.newBuilder().setKey(b("nw/a")).setWatchId(2));
            final WatchResponse duplicate = stream.next();
            assertEquals(EtcdErrors.DUPLICATE_WATCH_ID, duplicate.getCancelReason(), "it keeps its id: " + duplicate);
            stream.cancel(2);
            final WatchResponse canceled = stream.next();
            assertTrue(canceled.getCanceled() && canceled.getWatchId() == 2, canceled::toString);
            stream.create(WatchCreateRequest.newBuilder().setKey(b("nw/a")).setStartRevision(-3));
            assertEquals(0, stream.next().getWatchId(), "the first id the server chooses");
            assertCompacted(stream.next(), 0, -1, true);

            // Compact(0): the mark is 0, so -1 is compacted at 0, which etcd does not mark canceled.
            kv.compact(CompactionRequest.newBuilder().setRevision(0).build());
            assertCreatedThenCompacted(stream, -1, 7, 0, false);

            final long compactAt = fixture.engine.currentRevision();
            kv.compact(CompactionRequest.newBuilder().setRevision(compactAt).build());
            assertCreatedThenCompacted(stream, -1, 8, compactAt, true);
        }
    }

    private static void assertCreatedThenCompacted(final RawWatchStream stream, final long start, final long watchId,
        final long mark, final boolean canceled) throws InterruptedException
    {
        stream.create(WatchCreateRequest.newBuilder().setKey(b("nw/a")).setStartRevision(start).setWatchId(watchId));
        final WatchResponse created = stream.next();
        assertTrue(created.getCreated() && !created.getCanceled(), created::toString);
        assertEquals(watchId, created.getWatchId());
        assertCompacted(stream.next(), watchId, mark, canceled);
    }

    private static void assertCompacted(final WatchResponse compacted, final long watchId, final long mark, final boolean canceled)
    {
        final Supplier<String> seen = compacted::toString;
        assertEquals(watchId, compacted.getWatchId(), seen);
        assertEquals(mark, compacted.getCompactRevision(), seen);
        assertEquals(canceled, compacted.getCanceled(), seen);
        assertEquals("", compacted.getCancelReason(), seen);
        assertEquals(0, compacted.getHeader().getRevision(), seen);
        assertEquals(0, compacted.getEventsCount(), seen);
    }

    @Test
    void compactAtZeroAndANegativeLeaseHoldAcrossARestartOnADataDirectory() throws Exception
    {
        final RingWatchConfig config = RingWatchConfig.builder().name("marks-test").progressNotifyInterval(Duration.ofMillis(100))
            .persistence(LogConfig.builder(dir).build()).build();
        try (ServerFixture fixture = new ServerFixture(config).start())
        {
            final KVGrpc.KVBlockingStub kv = KVGrpc.newBlockingStub(fixture.channel);
            LeaseGrpc.newBlockingStub(fixture.channel).leaseGrant(LeaseGrantRequest.newBuilder().setID(-11).setTTL(3600).build());
            kv.put(PutRequest.newBuilder().setKey(b("rs/a")).setValue(b("1")).setLease(-11).build());
            assertEquals(1, kv.txn(readAt(-1)).getResponses(0).getResponseRange().getCount(), "-1 reads now before Compact(0)");
            kv.compact(CompactionRequest.newBuilder().setRevision(0).build());
            assertEquals(COMPACTED, error(() -> kv.txn(readAt(-1))));
        }
        try (ServerFixture fixture = new ServerFixture(config).start();
             RawWatchStream stream = new RawWatchStream(fixture.channel, true))
        {
            final KVGrpc.KVBlockingStub kv = KVGrpc.newBlockingStub(fixture.channel);
            assertEquals(COMPACTED, error(() -> kv.compact(CompactionRequest.newBuilder().setRevision(0).build())),
                "Compact(0) was taken before the restart");
            assertEquals(COMPACTED, error(() -> kv.txn(readAt(-1))));
            assertCreatedThenCompacted(stream, -1, 1, 0, false);
            assertEquals(-11, kv.range(RangeRequest.newBuilder().setKey(b("rs/a")).build()).getKvs(0).getLease());
        }
    }

    /** A transaction that reads rs/a at {@code revision}. */
    private static TxnRequest readAt(final long revision)
    {
        return TxnRequest.newBuilder().addSuccess(RequestOp.newBuilder().setRequestRange(
            RangeRequest.newBuilder().setKey(b("rs/a")).setRevision(revision))).build();
    }
}
