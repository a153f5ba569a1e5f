package io.ringwatch.server;

import com.google.protobuf.ByteString;
import io.ringwatch.server.api.etcdserverpb.DeleteRangeRequest;
import io.ringwatch.server.api.etcdserverpb.KVGrpc;
import io.ringwatch.server.api.etcdserverpb.PutRequest;
import io.ringwatch.server.api.etcdserverpb.RequestOp;
import io.ringwatch.server.api.etcdserverpb.TxnRequest;
import io.ringwatch.server.api.etcdserverpb.TxnResponse;
import io.ringwatch.server.api.etcdserverpb.WatchCreateRequest;
import io.ringwatch.server.api.etcdserverpb.WatchResponse;
import io.ringwatch.server.api.mvccpb.Event;
import io.ringwatch.engine.kv.Keys;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.Txn;
import io.ringwatch.server.rpc.EtcdErrors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Edges of the watch stream checked against etcd 3.5's v3rpc watch.go and mvcc watcher.go: a
 * client that half-closes its side keeps its watches (etcd's recvLoop returns nil on EOF and the
 * stream ends only with its context), and they end when it cancels the call; a watch ended by
 * compaction keeps its id on the stream until the client cancels it (mvcc's watchStream keeps
 * the watcher: its id is a duplicate, and a cancel of it is answered); a client that goes away
 * while the server sends it a fragmented response costs the others nothing; overlapping deletes in
 * one transaction give one delete event per key (etcd applies a txn's ops in order, each seeing
 * the ones before it).
 */
class WatchStreamEdgesTest
{
    @RegisterExtension
    static final ServerFixture fixture = new ServerFixture();

    private static ByteString b(final String s)
    {
        return ByteString.copyFromUtf8(s);
    }

    private static void awaitWatchers(final int count) throws InterruptedException
    {
        final long deadline = System.nanoTime() + Duration.ofSeconds(RawWatchStream.WAIT_SECONDS).toNanos();
        while (fixture.engine.stats().watcherCount() != count && System.nanoTime() < deadline)
        {
            Thread.sleep(10);
        }
        assertEquals(count, fixture.engine.stats().watcherCount());
    }

    /**
     * The tests share one server, and a stream's watchers leave the engine only after its call
     * ends; a test that counts watchers must not start while the previous test's are leaving.
     */
    @AfterEach
    void noWatcherOutlivesItsTest() throws InterruptedException
    {
        awaitWatchers(0);
    }

    @Test
    void aHalfClosedStreamKeepsItsWatchesUntilTheClientCancels() throws Exception
    {
        final int before = fixture.engine.stats().watcherCount();
        try (RawWatchStream stream = new RawWatchStream(fixture.channel, true))
        {
            stream.create(WatchCreateRequest.newBuilder().setKey(b("hc/a")).setWatchId(1));
            assertTrue(stream.next().getCreated());
            stream.halfClose();
            final long revision = fixture.engine.put("hc/a", "1").revision();
            final WatchResponse event = stream.next();
            assertEquals(1, event.getWatchId(), event::toString);
            assertEquals(1, event.getEventsCount(), () -> "etcd keeps serving a half-closed stream: " + event);
            assertEquals(revision, event.getEvents(0).getKv().getModRevision());
            awaitWatchers(before + 1);
        }
        awaitWatchers(before);
    }

    @Test
    void aWatchEndedByCompactionKeepsItsIdUntilCancelled() throws Exception
    {
        fixture.engine.put("ce/a", "1");
        final long revision = fixture.engine.put("ce/a", "2").revision();
        fixture.engine.compact(revision);
        try (RawWatchStream stream = new RawWatchStream(fixture.channel, true))
        {
            stream.create(WatchCreateRequest.newBuilder().setKey(b("ce/a")).setStartRevision(revision - 1).setWatchId(5));
            assertTrue(stream.next().getCreated());
            final WatchResponse compacted = stream.next();
            assertTrue(compacted.getCanceled());
            assertEquals(revision, compacted.getCompactRevision());

            stream.create(WatchCreateRequest.newBuilder().setKey(b("ce/a")).setWatchId(5));
            final WatchResponse duplicate = stream.next();
            assertTrue(duplicate.getCreated() && duplicate.getCanceled(), duplicate::toString);
            assertEquals(-1, duplicate.getWatchId());
            assertEquals(EtcdErrors.DUPLICATE_WATCH_ID, duplicate.getCancelReason());

            stream.cancel(5);
            final WatchResponse canceled = stream.next();
            assertEquals(5, canceled.getWatchId(), canceled::toString);
            assertTrue(canceled.getCanceled());
            assertEquals(0, canceled.getCompactRevision());

            stream.create(WatchCreateRequest.newBuilder().setKey(b("ce/a")).setWatchId(5));
            final WatchResponse created = stream.next();
            assertTrue(created.getCreated() && !created.getCanceled(), created::toString);
            assertEquals(5, created.getWatchId());
        }
    }

    @Test
    void aClientGoneMidFragmentedResponseLeavesTheOthersServed() throws Exception
    {
        final int before = fixture.engine.stats().watcherCount();
        final RawWatchStream gone = new RawWatchStream(fixture.channel, false);
        gone.create(WatchCreateRequest.newBuilder().setKey(b("mf/")).setRangeEnd(b("mf0")).setFragment(true).setPrevKv(true).setWatchId(1));
        assertTrue(gone.next().getCreated());
        final byte[] big = new byte[600_000];
        for (int round = 0; round < 2; round++)
        {
            fixture.engine.txn(Txn.of(List.of(), List.of(Op.put(Keys.utf8("mf/a"), big), Op.put(Keys.utf8("mf/b"), big),
                Op.put(Keys.utf8("mf/c"), big)), List.of()));
        }
        // The server is sending fragments into a window the client does not open: it goes away.
        gone.close();
        try (RawWatchStream other = new RawWatchStream(fixture.channel, true))
        {
            other.create(WatchCreateRequest.newBuilder().setKey(b("mf/")).setRangeEnd(b("mf0")).setWatchId(1));
            assertTrue(other.next().getCreated());
            final long revision = fixture.engine.put("mf/d", "small").revision();
            final WatchResponse event = other.next();
            assertEquals(revision, event.getEvents(0).getKv().getModRevision(), event::toString);
        }
        awaitWatchers(before);
    }

    @Test
    void overlappingDeletesInOneTxnDeleteEachKeyOnce() throws Exception
    {
        final KVGrpc.KVBlockingStub kv = KVGrpc.newBlockingStub(fixture.channel);
        for (final String key : List.of("od/a", "od/b", "od/c"))
        {
            kv.put(PutRequest.newBuilder().setKey(b(key)).setValue(b("v")).build());
        }
        try (RawWatchStream stream = new RawWatchStream(fixture.channel, true))
        {
            stream.create(WatchCreateRequest.newBuilder().setKey(b("od/")).setRangeEnd(b("od0")).setPrevKv(true).setWatchId(1));
            assertTrue(stream.next().getCreated());
            final TxnResponse txn = kv.txn(TxnRequest.newBuilder()
                .addSuccess(RequestOp.newBuilder().setRequestDeleteRange(DeleteRangeRequest.newBuilder().setKey(b("od/a")).setRangeEnd(b("od/c"))))
                .addSuccess(RequestOp.newBuilder().setRequestDeleteRange(DeleteRangeRequest.newBuilder().setKey(b("od/b")).setRangeEnd(b("od/d"))))
                .addSuccess(RequestOp.newBuilder().setRequestDeleteRange(DeleteRangeRequest.newBuilder().setKey(b("od/c")))).build());
            assertEquals(2, txn.getResponses(0).getResponseDeleteRange().getDeleted());
            assertEquals(1, txn.getResponses(1).getResponseDeleteRange().getDeleted(), "od/b is gone already");
            assertEquals(0, txn.getResponses(2).getResponseDeleteRange().getDeleted());
            final List<String> deleted = new ArrayList<>();
            while (deleted.size() < 3)
            {
                final WatchResponse response = stream.next();
                for (final Event event : response.getEventsList())
                {
                    assertEquals(Event.EventType.DELETE, event.getType());
                    assertEquals(txn.getHeader().getRevision(), event.getKv().getModRevision());
                    deleted.add(event.getKv().getKey().toStringUtf8() + "=" + event.getPrevKv().getValue().toStringUtf8());
                }
            }
            assertEquals(List.of("od/a=v", "od/b=v", "od/c=v"), deleted);
            stream.requestProgress();
            final WatchResponse progress = stream.next();
            assertEquals(-1, progress.getWatchId(), () -> "one delete event per key: " + progress);
        }
    }
}
