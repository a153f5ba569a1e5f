package io.ringwatch.server.watch;

import com.google.protobuf.ByteString;
import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.idle.Doorbell;
import io.ringwatch.engine.stats.WatcherView;
import io.ringwatch.server.api.etcdserverpb.WatchCreateRequest;
import io.ringwatch.server.api.etcdserverpb.WatchRequest;
import io.ringwatch.server.api.etcdserverpb.WatchResponse;
import io.ringwatch.server.kv.EtcdLimits;
import io.ringwatch.server.rpc.MemberIdentity;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The header revision of an event response, as etcd 3.5.22 fills it (mvcc watchable_store.go, v3rpc
 * watch.go sendLoop {@code Header: newResponseHeader(wresp.Revision)}): a synced watcher's response
 * carries the revision of its events ({@code notify(rev, evs)}: {@code Revision: rev}, and a
 * victim's retry {@code w.minRev - 1}, the same), an unsynced one's the store's revision when it
 * was synced ({@code syncWatchers}: {@code Revision: curRev}), whatever was written after. The pump
 * is driven by hand, after the engine has queued everything, so the store is ahead of the events
 * when they are sent.
 */
class WatchHeaderRevisionTest
{
    private final RingWatch engine = RingWatch.open(RingWatchConfig.builder().name("header-revision").build());
    private final WatchPump pump = new WatchPump("header-revision", new AdmissionShares(engine.stats(), null, 1), 0, new Doorbell());
    private final RecordingResponses out = new RecordingResponses(true);
    private final WatchStream stream = new WatchStream(engine, new MemberIdentity("m", List.of("http://127.0.0.1:2379")), out, pump,
        EtcdLimits.MAX_REQUEST_BYTES);

    @AfterEach
    void close()
    {
        stream.close();
        engine.close();
    }

    @Test
    void aWatchInStepGetsItsEventsRevisionThoughTheStoreMovedOn() throws Exception
    {
        create("hr/a", 0);
        final long revision = engine.put("hr/a", "v").revision();
        engine.put("hr/other1", "v");
        final long current = engine.put("hr/other2", "v").revision();
        awaitQueued(1);
        final WatchResponse response = nextEvents();
        assertEquals(revision, response.getEvents(0).getKv().getModRevision());
        assertEquals(revision, response.getHeader().getRevision(),
            "etcd's notify: the events' revision, not the store's " + current);
    }

    @Test
    void aWatchStartedInThePastGetsTheStoresRevisionAsEtcdsSyncWatchers() throws Exception
    {
        final long first = engine.put("hr/b", "1").revision();
        engine.put("hr/b", "2");
        final long current = engine.put("hr/other", "v").revision();
        create("hr/b", first);
        awaitQueued(2);
        final WatchResponse response = nextEvents();
        assertEquals(2, response.getEventsCount(), "caught up in one response, as syncWatchers sends it");
        assertEquals(current, response.getHeader().getRevision(), "etcd's syncWatchers: curRev, the store's revision");
    }

    private void create(final String key, final long startRevision)
    {
        stream.onNext(WatchRequest.newBuilder().setCreateRequest(WatchCreateRequest.newBuilder()
            .setKey(ByteString.copyFromUtf8(key)).setStartRevision(startRevision)).build());
        synchronized (out)
        {
            assertTrue(out.responses.remove(0).getCreated());
        }
    }

    private WatchResponse nextEvents()
    {
        for (int i = 0; i < 10; i++)
        {
            pump.doWork();
        }
        synchronized (out)
        {
            assertEquals(1, out.responses.size(), () -> "one response: " + out.responses);
            return out.responses.get(0);
        }
    }

    /** Waits until the engine has queued {@code events} for the stream's watch. */
    private void awaitQueued(final int events) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline)
        {
            final List<WatcherView> watchers = engine.watchers();
            if (watchers.size() == 1 && watchers.get(0).queued() >= events)
            {
                return;
            }
            Thread.sleep(1);
        }
    }
}
