package io.ringwatch.server;

import com.google.protobuf.ByteString;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.Txn;
import io.ringwatch.server.api.etcdserverpb.WatchCreateRequest;
import io.ringwatch.server.api.etcdserverpb.WatchResponse;
import io.ringwatch.server.api.mvccpb.Event;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * On the gRPC stream, no progress response (a watch's own periodic one, or the stream's answer to
 * a progress request) carries a header revision below an event the client already received, and
 * none goes below an earlier one: Kubernetes' etcd3 watcher turns a progress notification into a
 * bookmark at its header revision, which its reflector records as the last synced revision. The
 * writes are transactions of over a duty cycle's 4,096 changes with the watch's three changes at
 * the start, the middle and the end, so the engine's cycles end inside the revisions the watch is
 * handed part of; ticks every 2 ms and a progress request every millisecond land there too.
 */
class ProgressOrderOnTheWireTest
{
    private static final int CHANGES = 4_500;
    private static final int TXNS = 6;

    @RegisterExtension
    static final ServerFixture fixture = new ServerFixture(
        RingWatchConfig.builder().name("progress-order-wire").progressNotifyInterval(Duration.ofMillis(2)).build());

    @Test
    void noProgressResponseIsBelowAnEventTheClientReceivedBeforeIt() throws Exception
    {
        try (RawWatchStream stream = new RawWatchStream(fixture.channel, true))
        {
            stream.create(WatchCreateRequest.newBuilder().setKey(ByteString.copyFromUtf8("pow/a/"))
                .setRangeEnd(ByteString.copyFromUtf8("pow/a0")).setProgressNotify(true).setWatchId(1));
            assertTrue(stream.next().getCreated());
            final AtomicBoolean writing = new AtomicBoolean(true);
            final Thread writer = new Thread(() ->
            {
                for (int t = 0; t < TXNS; t++)
                {
                    fixture.engine.txn(bigTxn());
                }
                writing.set(false);
            }, "progress-order-wire-writer");
            writer.start();
            while (writing.get())
            {
                stream.requestProgress();
                Thread.sleep(1);
            }
            writer.join();
            final long last = fixture.engine.currentRevision();
            stream.requestProgress();

            final List<String> behind = new ArrayList<>();
            long eventsThrough = 0;
            long progressThrough = 0;
            int events = 0;
            int progress = 0;
            while (events < 3 * TXNS || progressThrough < last)
            {
                final WatchResponse response = stream.next();
                if (response.getEventsCount() == 0 && !response.getCreated() && !response.getCanceled())
                {
                    final long revision = response.getHeader().getRevision();
                    if (revision < eventsThrough || revision < progressThrough)
                    {
                        behind.add("progress " + revision + " (watch " + response.getWatchId() + ") after an event at "
                            + eventsThrough + " and progress " + progressThrough);
                    }
                    progressThrough = Math.max(progressThrough, revision);
                    progress++;
                }
                for (final Event event : response.getEventsList())
                {
                    eventsThrough = Math.max(eventsThrough, event.getKv().getModRevision());
                    events++;
                }
            }
            assertEquals(List.of(), behind);
            assertEquals(3 * TXNS, events);
            System.out.println("progress responses: " + progress);
        }
    }

    /** The watch's three changes at the start, the middle and the end of changes it does not watch. */
    private static Txn bigTxn()
    {
        final List<Op> puts = new ArrayList<>(CHANGES);
        for (int i = 0; i < CHANGES; i++)
        {
            if (i == 0 || i == CHANGES / 2 || i == CHANGES - 1)
            {
                puts.add(Op.put("pow/a/" + i, "v"));
            }
            else
            {
                puts.add(Op.put(String.format("pow/q/%05d", i), "v"));
            }
        }
        return Txn.of(List.of(), puts, List.of());
    }
}
