package io.ringwatch.server.watch;

import com.google.protobuf.ByteString;
import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.idle.WakeableIdleStrategy;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.Txn;
import io.ringwatch.server.api.etcdserverpb.WatchCreateRequest;
import io.ringwatch.server.api.etcdserverpb.WatchRequest;
import io.ringwatch.server.api.etcdserverpb.WatchResponse;
import io.ringwatch.server.kv.EtcdLimits;
import io.ringwatch.server.rpc.MemberIdentity;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The hand-overs that only the pump's old 100 ms sweep used to find, with no sweep (the pump now
 * has none): a missing mark is an event never sent. No timing decides these tests; the waits only
 * bound a failure.
 * <ul>
 * <li>A revision the engine hands a watch in two dispatch cycles, whose second part matches nothing
 * of the watch, is sent once whole: the engine marks the watch in the cycle that completes it. The
 * dispatcher is paused inside its second cycle (an index function it runs), so the pump polls the
 * first part exactly while the revision is open.</li>
 * <li>A watch catching up reads at most 4,096 changes per poll: past a stretch of other keys'
 * changes longer than that, its poll hands over nothing, and the watcher marks itself so the pump
 * polls it again.</li>
 * </ul>
 */
class UnsweptHandOverTest
{
    /** More events than one dispatch cycle routes (4,096), all at one revision. */
    private static final int EVENTS = 6_000;
    private static final int PAUSE_AT = 5_000;
    private static final String PAUSE = "pause";

    private final CountDownLatch paused = new CountDownLatch(1);
    private final CountDownLatch resume = new CountDownLatch(1);
    private final RingWatch engine = RingWatch.open(RingWatchConfig.builder().name("split-revision").dispatcherThreads(1).build());
    private final WakeableIdleStrategy idle = new WakeableIdleStrategy(WakeableIdleStrategy.DEFAULT_SPINS, 0, TimeUnit.SECONDS.toNanos(1));
    private final WatchPump pump = new WatchPump("split-revision", new AdmissionShares(engine.stats(), null, 1), 0, idle.doorbell());

    @AfterEach
    void close()
    {
        resume.countDown();
        engine.close();
    }

    @Test
    void aRevisionHandedOverInTwoCyclesIsSentOnceWholeWithoutASweep() throws Exception
    {
        engine.addIndex("pauser", (value, offset, length, sink) ->
        {
            if (Thread.currentThread().getName().startsWith("split-revision-dispatcher")
                && PAUSE.equals(value.getStringWithoutLengthUtf8(offset, length)))
            {
                paused.countDown();
                awaitQuietly(resume);
            }
            sink.accept(value, offset, length);
        });
        // A watch by index makes the dispatcher run the function on every event it routes.
        engine.watchPull(io.ringwatch.engine.watch.WatchRequest.byIndex("pauser", "never"));
        final RecordingResponses out = new RecordingResponses(true);
        final WatchStream stream = new WatchStream(engine, new MemberIdentity("m", List.of("http://127.0.0.1:2379")), out, pump,
            EtcdLimits.MAX_REQUEST_BYTES);
        pump.add(stream);
        stream.onNext(WatchRequest.newBuilder().setCreateRequest(WatchCreateRequest.newBuilder()
            .setKey(ByteString.copyFromUtf8("sr/a"))).build());
        drainPump();

        final List<Op> puts = new ArrayList<>();
        puts.add(Op.put("sr/a", "v"));
        for (int i = 1; i < EVENTS; i++)
        {
            puts.add(Op.put(String.format("sr/b%05d", i), i == PAUSE_AT ? PAUSE : "v"));
        }
        final long revision = engine.txn(Txn.of(List.of(), puts, List.of())).revision();
        assertTrue(paused.await(30, TimeUnit.SECONDS), "the dispatcher reached the pausing event in its second cycle");
        drainPump();
        assertEquals(0, events(out), "the open revision's event is held: the revision may have more for the watch");

        resume.countDown();
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (events(out) == 0 && System.nanoTime() < deadline)
        {
            pump.doWork();
            Thread.sleep(1);
        }
        assertEquals(1, events(out), "sent once the revision was whole, though the rest of it matched nothing of the watch");
        synchronized (out)
        {
            assertEquals(revision, out.responses.get(out.responses.size() - 1).getEvents(0).getKv().getModRevision());
        }
        stream.close();
    }

    @Test
    void aWatchCatchingUpPastManyOtherChangesGetsEveryEventWithoutASweep() throws Exception
    {
        try (RingWatch small = RingWatch.open(RingWatchConfig.builder().name("caught-up").watcherQueueDepth(16)
            .windowCapacity(1 << 16, 1 << 16).build()))
        {
            final WatchPump own = new WatchPump("caught-up", new AdmissionShares(small.stats(), null, 1), 0, idle.doorbell());
            final RecordingResponses out = new RecordingResponses(true);
            final WatchStream stream = new WatchStream(small, new MemberIdentity("m", List.of("http://127.0.0.1:2379")), out, own,
                EtcdLimits.MAX_REQUEST_BYTES);
            own.add(stream);
            stream.onNext(WatchRequest.newBuilder().setCreateRequest(WatchCreateRequest.newBuilder()
                .setKey(ByteString.copyFromUtf8("cu/p/")).setRangeEnd(ByteString.copyFromUtf8("cu/p0"))).build());
            // More than the watcher's queue holds, unpolled: it falls behind and must read by cursor.
            for (int i = 0; i < 100; i++)
            {
                small.put("cu/p/" + i, "v");
            }
            // Far more than one catch-up poll reads (4,096), none for the watch; then one more for it.
            final List<Op> others = new ArrayList<>();
            for (int i = 0; i < 500; i++)
            {
                others.add(Op.put("cu/q/" + i, "v"));
            }
            for (int t = 0; t < 100; t++)
            {
                small.txn(Txn.of(List.of(), others, List.of()));
            }
            small.put("cu/p/last", "v");
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (events(out) < 101 && System.nanoTime() < deadline)
            {
                own.doWork();
                Thread.sleep(1);
            }
            assertEquals(101, events(out), "every event of the watch, the one after 50,000 other changes included");
            synchronized (out)
            {
                assertEquals(small.currentRevision(), out.responses.get(1).getHeader().getRevision(),
                    "read by cursor, etcd's unsynced watcher: the store's revision (syncWatchers' curRev)");
            }
            stream.close();
        }
    }

    private void drainPump()
    {
        for (int i = 0; i < 10; i++)
        {
            pump.doWork();
        }
    }

    private static int events(final RecordingResponses out)
    {
        synchronized (out)
        {
            return out.responses.stream().mapToInt(WatchResponse::getEventsCount).sum();
        }
    }

    private static void awaitQuietly(final CountDownLatch latch)
    {
        try
        {
            latch.await(60, TimeUnit.SECONDS);
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
    }
}
