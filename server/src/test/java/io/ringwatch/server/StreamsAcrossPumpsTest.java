package io.ringwatch.server;

import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.server.api.etcdserverpb.WatchResponse;
import io.ringwatch.server.api.mvccpb.Event;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Many streams spread over several watch pumps, one of which never reads: every other stream, on
 * its pump or another, gets every event of each of its watches in order, and the one that does
 * not read then catches up with no gap. The streams are given to the pumps in turn as they open,
 * so whichever pump the slow stream lands on also serves two healthy streams. Asserts on delivery
 * only, never on time.
 */
class StreamsAcrossPumpsTest
{
    private static final int PUMPS = 3;
    private static final int STREAMS = 3 * PUMPS;
    private static final int WRITES = 600;
    /** 600 writes of 8 KiB are 4.8 MB: far over what the transport buffers for a stream that reads nothing. */
    private static final int VALUE_BYTES = 8_192;
    private static final String[] PREFIXES = {"pumps/a/", "pumps/b/"};

    private ServerFixture fixture;

    @BeforeEach
    void start()
    {
        fixture = new ServerFixture(RingWatchConfig.builder().name("streams-across-pumps").build())
            .start(ServerOptions.builder().name("across-pumps").listenClientUrl(URI.create("http://127.0.0.1:0")).watchPumps(PUMPS));
    }

    @AfterEach
    void stop() throws InterruptedException
    {
        fixture.close();
    }

    @Test
    void aStreamThatNeverReadsHoldsUpNoStreamOnAnyPump() throws Exception
    {
        assertEquals(PUMPS, pumpThreads(), "the server runs one thread per pump");
        final RawWatchStream slow = new RawWatchStream(fixture.channel, false);
        slow.create(PREFIXES[0], prefixEnd(PREFIXES[0]), 1);
        assertTrue(slow.next().getCreated());
        final List<RawWatchStream> healthy = new ArrayList<>();
        for (int s = 1; s < STREAMS; s++)
        {
            final RawWatchStream stream = new RawWatchStream(fixture.channel, true);
            for (int w = 0; w < PREFIXES.length; w++)
            {
                stream.create(PREFIXES[w], prefixEnd(PREFIXES[w]), w + 1);
                assertTrue(stream.next().getCreated());
            }
            healthy.add(stream);
        }
        final String value = "v".repeat(VALUE_BYTES);
        final long first = fixture.engine.currentRevision() + 1;
        for (int i = 0; i < WRITES; i++)
        {
            fixture.engine.put(PREFIXES[i % 2] + (i % 50), value);
        }
        final long last = fixture.engine.currentRevision();
        assertEquals(first + WRITES - 1, last, "every write was applied while one client read nothing");

        for (final RawWatchStream stream : healthy)
        {
            // Watch w + 1 watches the writes i with i % 2 == w: revisions first + w, first + w + 2, ...
            final long[] expected = {first, first + 1};
            while (expected[0] <= last || expected[1] <= last)
            {
                final WatchResponse response = stream.next();
                final int w = (int)response.getWatchId() - 1;
                for (final Event event : response.getEventsList())
                {
                    assertEquals(expected[w], event.getKv().getModRevision(), "each watch gets every event in order");
                    expected[w] += 2;
                }
            }
            stream.close();
        }
        assertTrue(slow.responses.isEmpty(), "the slow stream received nothing beyond its created response");

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
                assertEquals(expected, event.getKv().getModRevision(), "the slow stream catches up with no gap");
                expected += 2;
            }
        }
        slow.close();
    }

    private static String prefixEnd(final String prefix)
    {
        return prefix.substring(0, prefix.length() - 1) + (char)(prefix.charAt(prefix.length() - 1) + 1);
    }

    private static long pumpThreads()
    {
        return Thread.getAllStackTraces().keySet().stream()
            .filter(thread -> thread.getName().startsWith("across-pumps-watch-pump")).count();
    }
}
