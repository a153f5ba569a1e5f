package io.ringwatch.server;

import com.google.protobuf.ByteString;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.server.api.etcdserverpb.WatchCreateRequest;
import io.ringwatch.server.api.etcdserverpb.WatchResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A progress request (etcd's RequestProgressAll) on a stream whose watches asked for
 * progress_notify, with periodic progress too far apart to interleave: etcd answers with one
 * response, watch id -1, and no progress response of the watches' own (mvcc progressIfSync sends
 * one response on behalf of the stream).
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
}
