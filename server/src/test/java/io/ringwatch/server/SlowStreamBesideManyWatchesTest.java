package io.ringwatch.server;

import com.google.protobuf.ByteString;
import io.etcd.jetcd.kv.PutResponse;
import io.grpc.ManagedChannel;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.stats.WatcherView;
import io.ringwatch.server.api.etcdserverpb.WatchCreateRequest;
import io.ringwatch.server.api.etcdserverpb.WatchResponse;
import io.ringwatch.server.api.mvccpb.Event;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One stream whose client never reads, with prefix watches over every key, beside 1,000 healthy
 * single-key watches on four streams of the same server. The writes fill the slow stream's
 * flow-control window hundreds of times over. Every healthy watch must get every event of its key
 * in order, and what the server took from the engine for the slow stream must stay under a bound
 * that follows from the configuration alone: the client's window, gRPC's on-ready threshold and
 * one response past it (the pump stops a stream as soon as gRPC says it is not ready); on the
 * engine's side no watcher queue exceeds its depth and the pending entries stay within the
 * budget. The writes go through the server's KV service with write admission on, so they also
 * show that the stream that never reads does not hold the writers up for good. Asserts on counts,
 * never on time.
 */
class SlowStreamBesideManyWatchesTest
{
    private static final int KEYS = 100;
    private static final int HEALTHY_WATCHES = 1_000;
    private static final int HEALTHY_STREAMS = 4;
    private static final int SLOW_WATCHES = 4;
    private static final int WRITES = 2_000;
    private static final int VALUE_BYTES = 1_024;
    /** The slow client's HTTP/2 window, fixed (no auto-tuning) so that the bound below is known. */
    private static final int SLOW_WINDOW = 64 * 1024;
    /** grpc-java's default on-ready threshold: a stream stops being ready past this many queued bytes. */
    private static final int ON_READY_THRESHOLD = 32 * 1024;
    /**
     * The server's MAX_EVENTS_PER_RESPONSE: the most one response of one-event revisions past the
     * threshold adds, plus the one event of the next revision each watch polled to learn it was whole.
     */
    private static final int MAX_EVENTS_PER_RESPONSE = 128;
    private static final int QUEUE_DEPTH = 256;
    private static final int WRITES_IN_FLIGHT = 64;

    private ServerFixture fixture;
    private ManagedChannel slowChannel;

    @BeforeEach
    void start()
    {
        fixture = new ServerFixture(RingWatchConfig.builder().name("slow-beside-many").watcherQueueDepth(QUEUE_DEPTH).build()).start();
        slowChannel = fixture.channelWithWindow(SLOW_WINDOW);
    }

    @AfterEach
    void stop() throws InterruptedException
    {
        fixture.close();
    }

    @Test
    void healthyWatchesGetEverythingWhileTheSlowStreamHoldsABoundedAmount() throws Exception
    {
        final long first = fixture.engine.currentRevision() + 1;
        final RawWatchStream slow = new RawWatchStream(slowChannel, false);
        for (int id = 1; id <= SLOW_WATCHES; id++)
        {
            // An explicit start: the slow client reads no created response to learn it from.
            slow.create(WatchCreateRequest.newBuilder().setKey(ByteString.copyFromUtf8("h/"))
                .setRangeEnd(ByteString.copyFromUtf8("h0")).setWatchId(id).setStartRevision(first).setPrevKv(true));
        }
        final List<RawWatchStream> healthy = new ArrayList<>();
        for (int s = 0; s < HEALTHY_STREAMS; s++)
        {
            healthy.add(new RawWatchStream(fixture.channel, true));
        }
        for (int id = 1; id <= HEALTHY_WATCHES; id++)
        {
            healthy.get(id % HEALTHY_STREAMS).create(WatchCreateRequest.newBuilder().setKey(ByteString.copyFromUtf8(key(id % KEYS)))
                .setWatchId(id).setStartRevision(first));
        }
        // Through the server's write path: with write admission, a stream that never reads must not
        // hold the writers for good (it is left out of the backlog once it has not been ready for a
        // while), so these puts must all be acknowledged. Each key's revisions are taken from the answers.
        final List<CompletableFuture<PutResponse>> puts = fixture.putFlatOut(WRITES, WRITES_IN_FLIGHT, i -> key(i % KEYS),
            ServerFixture.bytes("v".repeat(VALUE_BYTES)));
        final Map<Integer, List<Long>> revisionsOfKey = new HashMap<>();
        for (int i = 0; i < WRITES; i++)
        {
            final long revision = puts.get(i).get(RawWatchStream.WAIT_SECONDS, TimeUnit.SECONDS).getHeader().getRevision();
            revisionsOfKey.computeIfAbsent(i % KEYS, k -> new ArrayList<>()).add(revision);
        }
        revisionsOfKey.values().forEach(Collections::sort);
        final long last = fixture.engine.currentRevision();
        assertEquals(first + WRITES - 1, last, "every write was acknowledged and applied");

        for (int s = 0; s < HEALTHY_STREAMS; s++)
        {
            assertEveryEventInOrder(healthy.get(s), s, revisionsOfKey);
            healthy.get(s).close();
        }

        long handedToSlowStream = 0;
        for (final WatcherView watcher : fixture.engine.watchers())
        {
            assertTrue(watcher.queued() <= QUEUE_DEPTH, () -> "a watcher queue past its depth: " + watcher);
            if (watcher.request().prevKv())
            {
                // Only the slow stream's watches ask for prev_kv; each wants every revision from `first`.
                handedToSlowStream += watcher.position() - first + 1;
            }
        }
        // Each event carries its value and prev_kv's: over 2 * VALUE_BYTES on the wire.
        final long bound = (SLOW_WINDOW + ON_READY_THRESHOLD) / (2 * VALUE_BYTES) + MAX_EVENTS_PER_RESPONSE + SLOW_WATCHES;
        final long handed = handedToSlowStream;
        assertTrue(handed <= bound, () -> "the server took " + handed + " events for the slow stream, over " + bound
            + " (of " + (long) SLOW_WATCHES * WRITES + " written for it)");
        assertTrue(fixture.engine.stats().pendingEntries() <= fixture.engine.stats().pendingBudget(), "pending entries within the budget");
        assertTrue(slow.responses.size() <= 1, "the slow client read at most its first response");
        slow.close();
    }

    private static String key(final int i)
    {
        return String.format("h/%02d", i);
    }

    /** Reads a healthy stream until each of its watches has every event of its key, and checks their order. */
    private static void assertEveryEventInOrder(final RawWatchStream stream, final int streamIndex,
        final Map<Integer, List<Long>> revisionsOfKey)
        throws InterruptedException
    {
        final Map<Long, List<Long>> received = new HashMap<>();
        final int watches = HEALTHY_WATCHES / HEALTHY_STREAMS;
        final int eventsPerWatch = WRITES / KEYS;
        int events = 0;
        while (events < watches * eventsPerWatch)
        {
            final WatchResponse response = stream.next();
            assertTrue(!response.getCanceled(), () -> "a healthy watch was canceled: " + response);
            for (final Event event : response.getEventsList())
            {
                received.computeIfAbsent(response.getWatchId(), id -> new ArrayList<>()).add(event.getKv().getModRevision());
                events++;
            }
        }
        for (long id = 1; id <= HEALTHY_WATCHES; id++)
        {
            if (id % HEALTHY_STREAMS != streamIndex)
            {
                continue;
            }
            assertEquals(revisionsOfKey.get((int) (id % KEYS)), received.get(id), "healthy watch " + id + " gets every event of its key, in order");
        }
    }
}
