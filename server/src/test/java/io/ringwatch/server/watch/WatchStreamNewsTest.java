package io.ringwatch.server.watch;

import com.google.protobuf.ByteString;
import io.grpc.stub.ServerCallStreamObserver;
import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.idle.Doorbell;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.stats.WatcherView;
import io.ringwatch.server.api.etcdserverpb.WatchCreateRequest;
import io.ringwatch.server.api.etcdserverpb.WatchRequest;
import io.ringwatch.server.api.etcdserverpb.WatchResponse;
import io.ringwatch.server.api.mvccpb.Event;
import io.ringwatch.server.rpc.MemberIdentity;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The pump polls only the watches of a stream that have news (their watcher rang since their last
 * poll, or a poll left events behind), and still delivers every event of every watch in order.
 * Drives one {@link WatchStream} by hand (no pump thread) over an in-memory engine.
 */
class WatchStreamNewsTest
{
    private static final int WATCHES = 100;
    private static final long AWAIT_MILLIS = 10_000;

    private RingWatch engine;
    private Recorder out;
    private WatchStream stream;

    @BeforeEach
    void open()
    {
        engine = RingWatch.open(RingWatchConfig.builder().name("news-test").build());
        out = new Recorder();
        stream = new WatchStream(engine, new MemberIdentity("news-test", List.of("http://127.0.0.1:2379")), out,
            new WatchPump("news-test-pump"), new Doorbell());
        for (int i = 0; i < WATCHES; i++)
        {
            stream.onNext(WatchRequest.newBuilder().setCreateRequest(WatchCreateRequest.newBuilder()
                .setKey(key(i)).setWatchId(i)).build());
        }
    }

    @AfterEach
    void close()
    {
        stream.close();
        engine.close();
    }

    @Test
    void newWatchesHaveNewsUntilPolledThenOnlyTheWatchesOfTheWrittenKeysDo()
    {
        assertEquals(WATCHES, stream.watchesWithNews(), "a new watch has not been polled yet");
        settle();
        assertEquals(0, stream.watchesWithNews(), "polled and nothing rang since");

        engine.write(Op.put(key(7).toByteArray(), bytes("a")));
        engine.write(Op.put(key(42).toByteArray(), bytes("b")));
        await(() -> stream.watchesWithNews() >= 2);
        assertEquals(2, stream.watchesWithNews(), "only the watches of the two keys written were rung");
        out.responses.clear();

        assertEquals(2, stream.pump());
        assertEquals(0, stream.watchesWithNews());
        final Map<Long, List<String>> received = eventsByWatch();
        assertEquals(Map.of(7L, List.of(key(7).toStringUtf8()), 42L, List.of(key(42).toStringUtf8())), received);
    }

    @Test
    void everyEventOfEveryWatchArrivesInRevisionOrderAndAWatchLeftWithEventsKeepsItsNews()
    {
        settle();
        final Random random = new Random(14);
        final Map<Long, List<Long>> written = new HashMap<>();
        final int hotWatch = 3;
        // Well over one response's worth for one watch, so a poll leaves events behind.
        for (int i = 0; i < 3 * WatchStream.MAX_EVENTS_PER_RESPONSE; i++)
        {
            final int watch = i % 2 == 0 ? hotWatch : random.nextInt(WATCHES);
            final long revision = engine.write(Op.put(key(watch).toByteArray(), bytes("v" + i))).revision();
            written.computeIfAbsent((long)watch, w -> new ArrayList<>()).add(revision);
        }
        out.responses.clear();
        final long total = written.values().stream().mapToLong(List::size).sum();
        final long deadline = System.currentTimeMillis() + AWAIT_MILLIS;
        long sent = 0;
        while (sent < total)
        {
            if (System.currentTimeMillis() > deadline)
            {
                fail("delivered " + sent + " of " + total + " events");
            }
            final int events = stream.pump();
            if (events >= WatchStream.MAX_EVENTS_PER_RESPONSE)
            {
                assertTrue(stream.watchesWithNews() > 0, "a watch sent a full response may hold more");
            }
            sent += events;
        }
        assertEquals(written, revisionsByWatch());
    }

    /**
     * Pumps until the engine has routed every watch (joining rings a watch once) and then a write to
     * the last watch's key has come through: the dispatcher rings in order, so every ring from
     * before it has been rung, and the pump that delivered it polled every watch that had news.
     */
    private void settle()
    {
        final long deadline = System.currentTimeMillis() + AWAIT_MILLIS;
        while (!allSynced())
        {
            if (System.currentTimeMillis() > deadline)
            {
                fail("the watches were not all routed");
            }
            stream.pump();
        }
        engine.write(Op.put(key(WATCHES - 1).toByteArray(), bytes("settle")));
        while (!eventsByWatch().containsKey((long)WATCHES - 1))
        {
            if (System.currentTimeMillis() > deadline)
            {
                fail("the settling write did not come through");
            }
            stream.pump();
        }
        out.responses.clear();
    }

    private boolean allSynced()
    {
        int synced = 0;
        for (final WatcherView watcher : engine.watchers())
        {
            synced += watcher.state() == WatcherView.State.SYNCED ? 1 : 0;
        }
        return synced == WATCHES;
    }

    private Map<Long, List<String>> eventsByWatch()
    {
        final Map<Long, List<String>> events = new HashMap<>();
        for (final WatchResponse response : out.responses)
        {
            for (final Event event : response.getEventsList())
            {
                events.computeIfAbsent(response.getWatchId(), w -> new ArrayList<>()).add(event.getKv().getKey().toStringUtf8());
            }
        }
        return events;
    }

    private Map<Long, List<Long>> revisionsByWatch()
    {
        final Map<Long, List<Long>> revisions = new HashMap<>();
        for (final WatchResponse response : out.responses)
        {
            for (final Event event : response.getEventsList())
            {
                revisions.computeIfAbsent(response.getWatchId(), w -> new ArrayList<>()).add(event.getKv().getModRevision());
            }
        }
        return revisions;
    }

    private static void await(final BooleanSupplier condition)
    {
        final long deadline = System.currentTimeMillis() + AWAIT_MILLIS;
        while (!condition.getAsBoolean())
        {
            if (System.currentTimeMillis() > deadline)
            {
                fail("condition not reached in " + AWAIT_MILLIS + " ms");
            }
            Thread.onSpinWait();
        }
    }

    private static ByteString key(final int watch)
    {
        return ByteString.copyFromUtf8(String.format("key-%03d", watch));
    }

    private static byte[] bytes(final String text)
    {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** A stream whose client always reads: records what the server sends. */
    private static final class Recorder extends ServerCallStreamObserver<WatchResponse>
    {
        final List<WatchResponse> responses = new ArrayList<>();

        @Override
        public void onNext(final WatchResponse response)
        {
            responses.add(response);
        }

        @Override
        public void onError(final Throwable t)
        {
            fail(t);
        }

        @Override
        public void onCompleted()
        {
        }

        @Override
        public boolean isReady()
        {
            return true;
        }

        @Override
        public boolean isCancelled()
        {
            return false;
        }

        @Override
        public void setOnCancelHandler(final Runnable handler)
        {
        }

        @Override
        public void setCompression(final String compression)
        {
        }

        @Override
        public void setOnReadyHandler(final Runnable handler)
        {
        }

        @Override
        public void disableAutoInboundFlowControl()
        {
        }

        @Override
        public void request(final int count)
        {
        }

        @Override
        public void setMessageCompression(final boolean enable)
        {
        }
    }
}
