package io.ringwatch.server;

import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.server.api.etcdserverpb.WatchResponse;
import io.ringwatch.server.api.mvccpb.Event;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A client that never reads its watch stream beside clients that do: gRPC flow control stops the
 * server from sending to it, its watch falls behind, and the healthy streams still get every
 * event; once it reads, it gets its events with no gap (or, had the window lapped it, a cancel
 * naming the revision to resume from). Asserts on delivery only, never on time.
 */
class SlowStreamTest
{
    private static final int WRITES = 3_000;
    private static final int VALUE_BYTES = 2_048;
    private static final int HEALTHY_STREAMS = 3;

    private ServerFixture fixture;

    @BeforeEach
    void start()
    {
        fixture = new ServerFixture(RingWatchConfig.builder().name("slow-stream-test").build()).start();
    }

    @AfterEach
    void stop() throws InterruptedException
    {
        fixture.close();
    }

    @Test
    void aStreamThatNeverReadsBlocksNeitherTheWriterNorTheOtherStreams() throws Exception
    {
        final RawWatchStream slow = new RawWatchStream(fixture.channel, false);
        slow.create("slow/", "slow0", 0);
        assertTrue(slow.next().getCreated());
        final List<RawWatchStream> healthy = new ArrayList<>();
        for (int i = 0; i < HEALTHY_STREAMS; i++)
        {
            final RawWatchStream stream = new RawWatchStream(fixture.channel, true);
            stream.create("slow/", "slow0", 0);
            assertTrue(stream.next().getCreated());
            healthy.add(stream);
        }
        final String value = "v".repeat(VALUE_BYTES);
        final long first = fixture.engine.currentRevision() + 1;
        for (int i = 0; i < WRITES; i++)
        {
            fixture.engine.put("slow/" + (i % 100), value);
        }
        final long last = fixture.engine.currentRevision();
        assertEquals(first + WRITES - 1, last, "every write was applied while one client read nothing");

        for (final RawWatchStream stream : healthy)
        {
            long expected = first;
            while (expected <= last)
            {
                final WatchResponse response = stream.next();
                for (final Event event : response.getEventsList())
                {
                    assertEquals(expected++, event.getKv().getModRevision(), "healthy streams get every event in order");
                }
            }
            stream.close();
        }
        // 3,000 events of 2 KiB are 6 MB: far over what the transport buffers for a stream that reads nothing.
        assertTrue(slow.responses.isEmpty(), "the slow stream received nothing beyond its created response");
        // Had the server kept polling the slow watch into gRPC's buffers, its watcher would be at `last`.
        assertTrue(fixture.engine.watchers().stream().anyMatch(w -> w.position() < last),
            () -> "no watcher fell behind: " + fixture.engine.watchers());

        slow.startReading();
        long expected = first;
        while (expected <= last)
        {
            final WatchResponse response = slow.next();
            if (response.getCanceled())
            {
                assertTrue(response.getCompactRevision() >= expected, "a lapped watch says where to resume");
                break;
            }
            for (final Event event : response.getEventsList())
            {
                assertEquals(expected++, event.getKv().getModRevision(), "the slow stream catches up with no gap");
            }
        }
        slow.close();
    }
}
