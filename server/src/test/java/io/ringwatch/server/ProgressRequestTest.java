package io.ringwatch.server;

import com.google.protobuf.ByteString;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.server.api.etcdserverpb.WatchCreateRequest;
import io.ringwatch.server.api.etcdserverpb.WatchResponse;
import io.ringwatch.server.api.mvccpb.Event;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Progress requests (etcd 3.5.22's RequestProgressAll, mvcc progressIfSync), with periodic progress
 * too far apart to interleave: each request that finds every watcher of the stream synced is
 * answered with one response, watch id -1, and no progress response of the watches' own (sent on
 * behalf of the stream); a burst gets one answer per request (etcd neither coalesces nor defers
 * them); and a stream holding a watch compacted and not yet cancelled by its client gets none (that
 * watcher stays in the stream's watchers, out of the synced group, until the cancel).
 */
class ProgressRequestTest
{
    @RegisterExtension
    static final ServerFixture fixture = new ServerFixture(
        RingWatchConfig.builder().name("progress-request-test").progressNotifyInterval(Duration.ofHours(1)).build());

    @Test
    void aProgressRequestIsAnsweredOnceForTheStreamEvenByProgressNotifyWatches() throws Exception
    {
        try (RawWatchStream stream = new RawWatchStream(fixture.channel, true))
        {
            stream.create(WatchCreateRequest.newBuilder().setKey(ByteString.copyFromUtf8("pr/a")).setProgressNotify(true).setWatchId(3));
            assertTrue(stream.next().getCreated());
            stream.create(WatchCreateRequest.newBuilder().setKey(ByteString.copyFromUtf8("pr/b")).setProgressNotify(true).setWatchId(4));
            assertTrue(stream.next().getCreated());
            final long revision = fixture.engine.put("pr/other", "x").revision();
            stream.requestProgress();
            final WatchResponse progress = stream.next();
            assertEquals(-1, progress.getWatchId(), () -> "the first response after the request: " + progress);
            assertEquals(0, progress.getEventsCount());
            assertEquals(revision, progress.getHeader().getRevision());
            final WatchResponse extra = stream.responses.poll(300, TimeUnit.MILLISECONDS);
            assertNull(extra, () -> "a second response: " + extra);
        }
    }

    @Test
    void aBurstOfProgressRequestsIsAnsweredOncePerRequest() throws Exception
    {
        // A client that does not read yet, so that the burst comes while the watch's events wait
        // (100 responses: within etcd's 128-response watch channel, so its watcher stays synced).
        try (RawWatchStream stream = new RawWatchStream(fixture.channelWithWindow(64 * 1024), false))
        {
            stream.create(WatchCreateRequest.newBuilder().setKey(ByteString.copyFromUtf8("prb/a")).setWatchId(1));
            assertTrue(stream.next().getCreated());
            final String value = "v".repeat(2_048);
            long revision = 0;
            for (int i = 0; i < 100; i++)
            {
                revision = fixture.engine.put("prb/a", value).revision();
            }
            for (int i = 0; i < 5; i++)
            {
                stream.requestProgress();
            }
            stream.startReading();
            int events = 0;
            int progress = 0;
            while (events < 100 || progress < 5)
            {
                final WatchResponse response = stream.next();
                if (response.getWatchId() == -1)
                {
                    assertEquals(100, events, "progress after every event before the request");
                    assertEquals(revision, response.getHeader().getRevision(), response::toString);
                    progress++;
                }
                else
                {
                    events += response.getEventsCount();
                }
            }
            final WatchResponse extra = stream.responses.poll(300, TimeUnit.MILLISECONDS);
            assertNull(extra, () -> "a sixth answer: " + extra);
        }
    }

    /**
     * Answered later than etcd would (once every watch has reached the request's revision), a
     * progress response must still never carry a revision below an event the stream already sent:
     * the client would take its watches back (Kubernetes' watch cache sets its resource version to
     * it). One watch's key is written flat out while the client asks for progress every
     * millisecond; the other watch's progress comes later. Each answer is at least every event
     * before it, and once the writes stop a request is answered at the store's revision.
     */
    @Test
    void aProgressAnswerIsNeverBelowAnEventTheStreamSentBeforeIt() throws Exception
    {
        try (RawWatchStream stream = new RawWatchStream(fixture.channel, true))
        {
            stream.create(WatchCreateRequest.newBuilder().setKey(ByteString.copyFromUtf8("prm/a")).setWatchId(1));
            assertTrue(stream.next().getCreated());
            stream.create(WatchCreateRequest.newBuilder().setKey(ByteString.copyFromUtf8("prm/b")).setWatchId(2));
            assertTrue(stream.next().getCreated());
            final AtomicBoolean writing = new AtomicBoolean(true);
            final Thread writer = new Thread(() ->
            {
                while (writing.get())
                {
                    fixture.engine.put("prm/a", "v");
                }
            }, "prm-writer");
            writer.start();
            final long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1_500);
            while (System.nanoTime() < end)
            {
                stream.requestProgress();
                Thread.sleep(1);
            }
            writing.set(false);
            writer.join();
            final long last = fixture.engine.currentRevision();
            stream.requestProgress();
            long eventsThrough = 0;
            int answers = 0;
            while (true)
            {
                final WatchResponse response = stream.next();
                if (response.getWatchId() == -1)
                {
                    answers++;
                    final long seen = eventsThrough;
                    assertTrue(response.getHeader().getRevision() >= seen,
                        () -> "progress at " + response.getHeader().getRevision() + " after an event at " + seen);
                    if (response.getHeader().getRevision() == last && eventsThrough == last)
                    {
                        break;
                    }
                }
                for (final Event event : response.getEventsList())
                {
                    eventsThrough = Math.max(eventsThrough, event.getKv().getModRevision());
                }
            }
            System.out.println("progress answers while writing, and the last: " + answers);
        }
    }

    @Test
    void noAnswerWhileACompactedWatchIsNotCancelled() throws Exception
    {
        fixture.engine.put("prc/a", "1");
        final long revision = fixture.engine.put("prc/a", "2").revision();
        fixture.engine.compact(revision);
        try (RawWatchStream stream = new RawWatchStream(fixture.channel, true))
        {
            stream.create(WatchCreateRequest.newBuilder().setKey(ByteString.copyFromUtf8("prc/b")).setWatchId(1));
            assertTrue(stream.next().getCreated());
            stream.create(WatchCreateRequest.newBuilder().setKey(ByteString.copyFromUtf8("prc/a")).setStartRevision(revision - 1)
                .setWatchId(2));
            assertTrue(stream.next().getCreated());
            final WatchResponse compacted = stream.next();
            assertEquals(revision, compacted.getCompactRevision(), compacted::toString);

            stream.requestProgress();
            stream.create(WatchCreateRequest.newBuilder().setKey(ByteString.copyFromUtf8("prc/c")).setWatchId(3));
            final WatchResponse created = stream.next();
            assertTrue(created.getCreated(), () -> "etcd drops the request: " + created);
            final WatchResponse late = stream.responses.poll(300, TimeUnit.MILLISECONDS);
            assertNull(late, () -> "answered: " + late);

            stream.cancel(2);
            assertTrue(stream.next().getCanceled());
            stream.requestProgress();
            final WatchResponse progress = stream.next();
            assertEquals(-1, progress.getWatchId(), progress::toString);
            assertEquals(fixture.engine.currentRevision(), progress.getHeader().getRevision());
        }
    }
}
