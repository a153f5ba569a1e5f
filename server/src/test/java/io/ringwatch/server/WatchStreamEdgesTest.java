package io.ringwatch.server;

import com.google.protobuf.ByteString;
import io.ringwatch.server.api.etcdserverpb.WatchCreateRequest;
import io.ringwatch.server.api.etcdserverpb.WatchResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Edges of the watch stream checked against etcd 3.5's v3rpc watch.go: a client that half-closes
 * its side keeps its watches (etcd's recvLoop returns nil on EOF and the stream ends only with
 * its context), and they end when it cancels the call.
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
}
