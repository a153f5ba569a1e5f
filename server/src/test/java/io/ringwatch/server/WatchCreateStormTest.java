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
 * A create storm, then a cancel storm, on one stream (modelled on etcd clients that open a watch
 * per object): 10,000 creates sent while the client reads nothing, then read; then 10,000 cancels.
 * Every create gets its created response and every cancel its canceled one, in the order sent,
 * with the ids etcd gives (0, 1, 2... when the client leaves watch_id at 0), every engine watcher
 * ends with its cancel, and the stream still serves a watch afterwards.
 */
class WatchCreateStormTest
{
    private static final int WATCHES = 10_000;

    @RegisterExtension
    static final ServerFixture fixture = new ServerFixture();

    @Test
    void everyCreateAndCancelOfAStormIsAnsweredInOrder() throws Exception
    {
        try (RawWatchStream stream = new RawWatchStream(fixture.channel, false))
        {
            for (int i = 0; i < WATCHES; i++)
            {
                stream.create(WatchCreateRequest.newBuilder().setKey(ByteString.copyFromUtf8("storm/" + i)));
            }
            stream.startReading();
            for (int i = 0; i < WATCHES; i++)
            {
                final WatchResponse created = stream.next();
                assertTrue(created.getCreated(), created::toString);
                assertEquals(i, created.getWatchId(), "created in the order sent, with etcd's ids");
            }
            assertEquals(WATCHES, liveStormWatchers());
            for (int i = 0; i < WATCHES; i++)
            {
                stream.cancel(i);
            }
            for (int i = 0; i < WATCHES; i++)
            {
                final WatchResponse canceled = stream.next();
                assertTrue(canceled.getCanceled(), canceled::toString);
                assertEquals(i, canceled.getWatchId(), "canceled in the order sent");
            }
            final long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (liveStormWatchers() > 0 && System.nanoTime() < deadline)
            {
                Thread.sleep(10);
            }
            assertEquals(0, liveStormWatchers(), "every engine watcher ended with its cancel");

            stream.create(WatchCreateRequest.newBuilder().setKey(ByteString.copyFromUtf8("storm/after")));
            assertTrue(stream.next().getCreated());
            final long revision = fixture.engine.put("storm/after", "v").revision();
            assertEquals(revision, stream.next().getEvents(0).getKv().getModRevision(), "the stream still serves");
        }
    }

    private static long liveStormWatchers()
    {
        return fixture.engine.watchers().stream()
            .filter(w -> w.request().range().toString().startsWith("key(storm/") && w.cancelReason() == null)
            .count();
    }
}
