package io.ringwatch.server;

import com.google.protobuf.ByteString;
import io.ringwatch.server.api.etcdserverpb.WatchCreateRequest;
import io.ringwatch.server.api.etcdserverpb.WatchResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Progress for a watch whose start revision is ahead of the store, as etcd 3.4.38, 3.5.22 and
 * 3.6.2 (etcd-io/etcd#20229, mvcc {@code progressIfSync}: no progress while the store's revision
 * is below a watcher's start revision): a progress request on a stream holding such a watch is
 * not answered, and such a watch gets no periodic progress until the store reaches its start;
 * a progress below the start would tell the client it had seen revisions it asked to skip.
 */
class FutureStartProgressTest
{
    @RegisterExtension
    static final ServerFixture fixture = new ServerFixture();

    private static ByteString b(final String s)
    {
        return ByteString.copyFromUtf8(s);
    }

    @Test
    void aProgressRequestIsDroppedWhileAWatchOfTheStreamStartsAheadOfTheStore() throws Exception
    {
        try (RawWatchStream stream = new RawWatchStream(fixture.channel, true))
        {
            final long current = fixture.engine.currentRevision();
            stream.create(WatchCreateRequest.newBuilder().setKey(b("fsp/a")).setStartRevision(current + 2).setWatchId(1));
            assertTrue(stream.next().getCreated());
            stream.create(WatchCreateRequest.newBuilder().setKey(b("fsp/b")).setWatchId(2));
            assertTrue(stream.next().getCreated());
            stream.requestProgress();
            // Requests are handled in order: what answers the progress request would come before
            // (or, deferred, right after) the cancel of the future watch, ahead of the next created.
            stream.cancel(1);
            final WatchResponse canceled = stream.next();
            assertEquals(1, canceled.getWatchId(), canceled::toString);
            assertTrue(canceled.getCanceled());
            stream.create(WatchCreateRequest.newBuilder().setKey(b("fsp/c")).setWatchId(3));
            final WatchResponse created = stream.next();
            assertTrue(created.getCreated(), () -> "etcd drops the progress request: " + created);
            assertEquals(3, created.getWatchId());

            // Once no watch starts ahead of the store, a request is answered at the store's revision.
            stream.requestProgress();
            final WatchResponse progress = stream.next();
            assertEquals(-1, progress.getWatchId(), progress::toString);
            assertEquals(fixture.engine.currentRevision(), progress.getHeader().getRevision());
        }
    }

    @Test
    void aProgressRequestIsAnsweredOnceTheStoreReachesTheStart() throws Exception
    {
        try (RawWatchStream stream = new RawWatchStream(fixture.channel, true))
        {
            final long start = fixture.engine.currentRevision() + 1;
            stream.create(WatchCreateRequest.newBuilder().setKey(b("fsr/a")).setStartRevision(start).setWatchId(1));
            assertTrue(stream.next().getCreated());
            final long revision = fixture.engine.put("fsr/other", "x").revision();
            assertEquals(start, revision);
            stream.requestProgress();
            final WatchResponse progress = stream.next();
            assertEquals(-1, progress.getWatchId(), progress::toString);
            assertEquals(revision, progress.getHeader().getRevision());
        }
    }

    @Test
    void aWatchStartingAheadGetsNoPeriodicProgressBelowItsStart() throws Exception
    {
        try (RawWatchStream stream = new RawWatchStream(fixture.channel, true))
        {
            final long start = fixture.engine.currentRevision() + 1_000;
            stream.create(WatchCreateRequest.newBuilder().setKey(b("fpp/a")).setStartRevision(start).setProgressNotify(true).setWatchId(1));
            assertTrue(stream.next().getCreated());
            stream.create(WatchCreateRequest.newBuilder().setKey(b("fpp/b")).setProgressNotify(true).setWatchId(2));
            assertTrue(stream.next().getCreated());
            // The fixture's engine ticks every 100 ms: by the present watch's fifth periodic
            // progress, the future watch's shard has ticked too.
            int presentProgress = 0;
            while (presentProgress < 5)
            {
                final WatchResponse response = stream.next();
                assertEquals(2, response.getWatchId(), () -> "progress below the watch's start revision: " + response);
                assertFalse(response.getCanceled());
                assertEquals(0, response.getEventsCount());
                presentProgress++;
            }
        }
    }
}
