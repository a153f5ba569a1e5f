package io.ringwatch.server.watch;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.idle.WakeableIdleStrategy;
import io.ringwatch.engine.stats.WatcherView;
import io.ringwatch.server.api.etcdserverpb.WatchCreateRequest;
import io.ringwatch.server.api.etcdserverpb.WatchRequest;
import io.ringwatch.server.api.etcdserverpb.WatchResponse;
import io.ringwatch.server.kv.EtcdLimits;
import io.ringwatch.server.rpc.MemberIdentity;
import com.google.protobuf.ByteString;
import org.agrona.concurrent.AgentRunner;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The pump visits only the watches the engine marked and the streams gRPC said are ready, so a
 * mark it misses is an event never sent (the pump has no periodic sweep), and every event
 * must still arrive. Many watches on many streams get one event each while the pump runs on its
 * own thread (so marks land while it parks and while it is mid-pass); a stream that is not ready
 * gets its events once its on-ready comes.
 */
class WatchPumpReadyTest
{
    private static final int STREAMS = 8;
    private static final int WATCHES_PER_STREAM = 125;

    private RingWatch engine;
    private WakeableIdleStrategy idle;
    private WatchPump pump;
    private AgentRunner runner;
    private final List<WatchStream> streams = new ArrayList<>();
    private final List<RecordingResponses> observers = new ArrayList<>();

    @BeforeEach
    void open()
    {
        engine = RingWatch.open(RingWatchConfig.builder().name("watch-pump-ready").build());
        idle = new WakeableIdleStrategy(WakeableIdleStrategy.DEFAULT_SPINS, 0, TimeUnit.SECONDS.toNanos(1));
        pump = new WatchPump("watch-pump-ready", new AdmissionShares(engine.stats(), null, 1), 0, idle.doorbell());
    }

    @AfterEach
    void close()
    {
        if (runner != null)
        {
            runner.close();
        }
        streams.forEach(WatchStream::close);
        engine.close();
    }

    @Test
    void everyWatchGetsItsOneEventWhileThePumpParksAndRuns() throws Exception
    {
        openStreams(true);
        runner = new AgentRunner(idle, Throwable::printStackTrace, null, pump);
        AgentRunner.startOnThread(runner);
        for (int s = 0; s < STREAMS; s++)
        {
            for (int w = 0; w < WATCHES_PER_STREAM; w++)
            {
                engine.put(key(s, w), "v");
                if (w % 25 == 0)
                {
                    // Let the pump park now and then, so that some marks ring a parked pump.
                    Thread.sleep(1);
                }
            }
        }
        final Set<String> expected = ConcurrentHashMap.newKeySet();
        for (int s = 0; s < STREAMS; s++)
        {
            for (int w = 0; w < WATCHES_PER_STREAM; w++)
            {
                expected.add(key(s, w));
            }
        }
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (received().size() < expected.size() && System.nanoTime() < deadline)
        {
            Thread.sleep(5);
        }
        expected.removeAll(received());
        assertTrue(expected.isEmpty(), () -> expected.size() + " watches never got their event (nothing finds a missed mark), e.g. "
            + expected.iterator().next());
    }

    @Test
    void aStreamThatWasNotReadyGetsItsEventsAfterItsOnReady() throws Exception
    {
        openStreams(false);
        for (int s = 0; s < STREAMS; s++)
        {
            engine.put(key(s, 0), "v");
        }
        awaitPositions();
        for (int i = 0; i < 10; i++)
        {
            pump.doWork();
        }
        assertTrue(received().isEmpty(), "nothing is sent to a stream that is not ready");
        for (int s = 0; s < STREAMS; s++)
        {
            observers.get(s).ready = true;
            pump.transportReady(streams.get(s));
        }
        pump.doWork();
        assertEquals(STREAMS, received().size(), () -> "every stream's event after its on-ready: " + received());
    }

    private void openStreams(final boolean ready)
    {
        final MemberIdentity member = new MemberIdentity("m", List.of("http://127.0.0.1:2379"));
        for (int s = 0; s < STREAMS; s++)
        {
            final RecordingResponses out = new RecordingResponses(ready);
            final WatchStream stream = new WatchStream(engine, member, out, pump, EtcdLimits.MAX_REQUEST_BYTES);
            pump.add(stream);
            for (int w = 0; w < WATCHES_PER_STREAM; w++)
            {
                stream.onNext(WatchRequest.newBuilder().setCreateRequest(WatchCreateRequest.newBuilder()
                    .setKey(ByteString.copyFromUtf8(key(s, w))).setWatchId(w + 1)).build());
            }
            streams.add(stream);
            observers.add(out);
        }
    }

    /** Waits until the engine has queued each stream's event for its watcher (the pump is not running). */
    private void awaitPositions() throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (queued() < STREAMS && System.nanoTime() < deadline)
        {
            Thread.sleep(1);
        }
    }

    private long queued()
    {
        long queued = 0;
        for (final WatcherView watcher : engine.watchers())
        {
            queued += watcher.queued();
        }
        return queued;
    }

    private Set<String> received()
    {
        final Set<String> keys = ConcurrentHashMap.newKeySet();
        for (final RecordingResponses out : observers)
        {
            synchronized (out)
            {
                for (final WatchResponse response : out.responses)
                {
                    response.getEventsList().forEach(event -> keys.add(event.getKv().getKey().toStringUtf8()));
                }
            }
        }
        return keys;
    }

    private static String key(final int stream, final int watch)
    {
        return "wpr/" + stream + "/" + watch;
    }
}
