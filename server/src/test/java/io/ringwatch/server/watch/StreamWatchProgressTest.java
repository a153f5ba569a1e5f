package io.ringwatch.server.watch;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.idle.Doorbell;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.server.kv.EtcdLimits;
import io.ringwatch.server.rpc.MemberIdentity;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A watch's periodic progress as sent on its stream, with the ticks handed to the watch by the
 * test (the engine's own are an hour apart): after an event the next tick sends nothing and the
 * one after it sends, as etcd's sendLoop; below the start revision none is sent, nor below an event
 * the watch sent.
 */
class StreamWatchProgressTest
{
    private RingWatch engine;
    private RecordingResponses out;
    private WatchStream stream;

    @BeforeEach
    void open()
    {
        engine = RingWatch.open(RingWatchConfig.builder().name("stream-watch-progress").progressNotifyInterval(Duration.ofHours(1)).build());
        out = new RecordingResponses(true);
        stream = new WatchStream(engine, new MemberIdentity("m", List.of("http://127.0.0.1:2379")), out,
            new WatchPump("stream-watch-progress-pump", new AdmissionShares(engine.stats(), null, 1), 0, new Doorbell()), EtcdLimits.MAX_REQUEST_BYTES);
    }

    @AfterEach
    void close()
    {
        stream.close();
        engine.close();
    }

    private StreamWatch watch(final String key, final long startRevision)
    {
        final PullWatcher watcher = engine.watchPull(WatchRequest.of(KeyRange.key(key)).startRevision(startRevision)
            .withProgressNotify());
        return new StreamWatch(stream, 1, watcher, startRevision, engine.currentRevision(), true, false, EtcdLimits.MAX_REQUEST_BYTES);
    }

    @Test
    void theTickAfterAnEventSendsNoProgressAndTheNextOneDoes() throws Exception
    {
        final StreamWatch watch = watch("swp/a", 0);
        synchronized (stream)
        {
            watch.onProgress(engine.currentRevision());
        }
        assertEquals(1, out.responses.size(), "a quiet watch gets progress at a tick");
        final long revision = engine.put("swp/a", "x").revision();
        final long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (out.responses.size() < 2 && System.nanoTime() < deadline)
        {
            synchronized (stream)
            {
                watch.drain();
            }
            Thread.onSpinWait();
        }
        assertEquals(2, out.responses.size(), "the event, within 20 s");
        assertEquals(1, out.responses.get(1).getEventsCount());
        synchronized (stream)
        {
            watch.onProgress(revision);
        }
        assertEquals(2, out.responses.size(), () -> "a progress right after an event: " + out.responses.get(2));
        synchronized (stream)
        {
            watch.onProgress(revision);
        }
        assertEquals(3, out.responses.size());
        assertEquals(0, out.responses.get(2).getEventsCount());
        assertEquals(revision, out.responses.get(2).getHeader().getRevision());
    }

    /**
     * A progress below an event the watch already sent goes out as nothing (the engine hands none
     * such; the stream keeps the rule too): client-go takes a progress notification's revision as
     * its bookmark, and one behind an event makes its next watch replay the event.
     */
    @Test
    void noPeriodicProgressBelowAnEventAlreadySent() throws Exception
    {
        final StreamWatch watch = watch("swp/c", 0);
        final long revision = engine.put("swp/c", "x").revision();
        final long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (out.responses.isEmpty() && System.nanoTime() < deadline)
        {
            synchronized (stream)
            {
                watch.drain();
            }
            Thread.onSpinWait();
        }
        assertEquals(1, out.responses.size(), "the event, within 20 s");
        synchronized (stream)
        {
            // The first tick after an event sends nothing by etcd's rule; the second would.
            watch.onProgress(revision - 1);
            watch.onProgress(revision - 1);
        }
        assertEquals(1, out.responses.size(), () -> "a progress behind the event sent: " + out.responses);
        synchronized (stream)
        {
            watch.onProgress(revision);
        }
        assertEquals(2, out.responses.size());
        assertEquals(revision, out.responses.get(1).getHeader().getRevision());
    }

    @Test
    void noPeriodicProgressBelowTheStartRevision()
    {
        final long current = engine.currentRevision();
        final StreamWatch watch = watch("swp/b", current + 2);
        synchronized (stream)
        {
            watch.onProgress(current);
            watch.onProgress(current + 1);
        }
        assertTrue(out.responses.isEmpty(), () -> "progress below the start: " + out.responses);
        synchronized (stream)
        {
            watch.onProgress(current + 2);
        }
        assertEquals(1, out.responses.size());
    }
}
