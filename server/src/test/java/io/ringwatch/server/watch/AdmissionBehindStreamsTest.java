package io.ringwatch.server.watch;

import com.google.protobuf.ByteString;
import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.idle.WakeableIdleStrategy;
import io.ringwatch.engine.stats.WatcherView;
import io.ringwatch.server.admission.AdmissionMarks;
import io.ringwatch.server.admission.WriteAdmission;
import io.ringwatch.server.admission.WriteGate;
import io.ringwatch.server.api.etcdserverpb.WatchCreateRequest;
import io.ringwatch.server.api.etcdserverpb.WatchRequest;
import io.ringwatch.server.kv.EtcdLimits;
import io.ringwatch.server.rpc.MemberIdentity;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Write admission measures only the streams behind: a stream whose client does not take its
 * events is listed with its ready watches and measured (its slowest ready watch sets the backlog,
 * the other watches, in step, do not), and leaves the list once it has sent them; without
 * admission no stream is listed, so none is kept. The pump is driven by hand ({@code doWork}).
 */
class AdmissionBehindStreamsTest
{
    private static final int STREAMS = 4;
    private static final int WATCHES_PER_STREAM = 50;

    private RingWatch engine;
    private final List<WatchStream> streams = new ArrayList<>();
    private final List<RecordingResponses> observers = new ArrayList<>();

    @AfterEach
    void close()
    {
        streams.forEach(WatchStream::close);
        engine.close();
    }

    @Test
    void aStreamWithEventsItCannotSendIsMeasuredUntilItHasSentThem() throws Exception
    {
        engine = RingWatch.open(RingWatchConfig.builder().name("admission-behind").build());
        final WriteGate gate = new WriteGate(engine::currentRevision, 16);
        final WriteAdmission admission = new WriteAdmission(AdmissionMarks.defaults(), TimeUnit.HOURS.toNanos(1), gate);
        final WatchPump pump = new WatchPump("admission-behind", new AdmissionShares(engine.stats(), admission, 1), 0, idleDoorbell());
        openStreams(pump);
        final long before = engine.currentRevision();
        for (int s = 0; s < STREAMS; s++)
        {
            engine.put(key(s, 0), "v");
        }
        awaitQueued(STREAMS);
        measure(pump);
        assertEquals(STREAMS, pump.streamsBehind(), "every stream holds an event it cannot send");
        assertEquals(engine.currentRevision() - before, admission.backlog(),
            "the backlog is the slowest ready watch's, the first stream's, which has had nothing of its revision");
        for (int s = 0; s < STREAMS; s++)
        {
            observers.get(s).ready = true;
            pump.transportReady(streams.get(s));
        }
        pump.doWork();
        engine.put("elsewhere", "v");
        measure(pump);
        assertEquals(0, pump.streamsBehind(), "streams that sent what they held are not measured");
        assertEquals(0, admission.backlog(), "every watch in step");
    }

    @Test
    void withoutAdmissionNoStreamIsKept() throws Exception
    {
        engine = RingWatch.open(RingWatchConfig.builder().name("admission-none").build());
        final WatchPump pump = new WatchPump("admission-none", new AdmissionShares(engine.stats(), null, 1), 0, idleDoorbell());
        openStreams(pump);
        for (int s = 0; s < STREAMS; s++)
        {
            engine.put(key(s, 0), "v");
        }
        awaitQueued(STREAMS);
        measure(pump);
        assertEquals(0, pump.streamsBehind(), "nothing measures streams, so none is listed (and kept after it closes)");
    }

    private static io.ringwatch.engine.idle.Doorbell idleDoorbell()
    {
        return new WakeableIdleStrategy(WakeableIdleStrategy.DEFAULT_SPINS, 0, TimeUnit.SECONDS.toNanos(1)).doorbell();
    }

    /** A pass, then another once the admission's interval has passed, so that it measures. */
    private static void measure(final WatchPump pump) throws InterruptedException
    {
        pump.doWork();
        Thread.sleep(2);
        pump.doWork();
    }

    private void openStreams(final WatchPump pump)
    {
        final MemberIdentity member = new MemberIdentity("m", List.of("http://127.0.0.1:2379"));
        for (int s = 0; s < STREAMS; s++)
        {
            final RecordingResponses out = new RecordingResponses(false);
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

    /** Waits until the engine has queued {@code events} events for the watchers (the pump is not running). */
    private void awaitQueued(final int events) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        long queued = 0;
        while (queued < events && System.nanoTime() < deadline)
        {
            Thread.sleep(1);
            queued = 0;
            for (final WatcherView watcher : engine.watchers())
            {
                queued += watcher.queued();
            }
        }
    }

    private static String key(final int stream, final int watch)
    {
        return "behind/" + stream + "/" + watch;
    }
}
