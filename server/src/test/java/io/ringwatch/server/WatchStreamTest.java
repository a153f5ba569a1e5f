package io.ringwatch.server;

import com.google.protobuf.ByteString;
import io.ringwatch.server.api.etcdserverpb.WatchCreateRequest;
import io.ringwatch.server.api.etcdserverpb.WatchResponse;
import io.ringwatch.server.api.mvccpb.Event;
import io.ringwatch.engine.kv.Keys;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.Txn;
import io.ringwatch.server.rpc.EtcdErrors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The watch stream protocol itself, over the raw stub: many watches on one stream with client-chosen
 * and automatic ids, refused creates, cancel, progress requests and progress notifications.
 */
class WatchStreamTest
{
    @RegisterExtension
    static final ServerFixture fixture = new ServerFixture();

    @Test
    void manyWatchesOnOneStreamWithChosenAndAutomaticIds() throws Exception
    {
        try (RawWatchStream stream = new RawWatchStream(fixture.channel, true))
        {
            stream.create("m/a", "", 7);
            assertCreated(stream.next(), 7);
            stream.create("m/", "m0", 0);
            assertCreated(stream.next(), 0);
            stream.create("m/b", "", 0);
            assertCreated(stream.next(), 1);
            stream.create("m/b", "", 7);
            final WatchResponse duplicate = stream.next();
            assertTrue(duplicate.getCreated() && duplicate.getCanceled());
            assertEquals(-1, duplicate.getWatchId());
            assertEquals(EtcdErrors.DUPLICATE_WATCH_ID, duplicate.getCancelReason());

            final long revision = fixture.engine.put("m/a", "x").revision();
            final Map<Long, Event> byWatch = new HashMap<>();
            while (byWatch.size() < 2)
            {
                final WatchResponse events = stream.next();
                assertEquals(1, events.getEventsCount());
                byWatch.put(events.getWatchId(), events.getEvents(0));
            }
            assertEquals(revision, byWatch.get(7L).getKv().getModRevision());
            assertEquals(revision, byWatch.get(0L).getKv().getModRevision());
        }
    }

    @Test
    void aWatchCreatedWithFragmentSplitsALargeResponseBelowEtcdsWatchLimitAndTheOtherDoesNot() throws Exception
    {
        try (RawWatchStream stream = new RawWatchStream(fixture.channel, true))
        {
            stream.create(WatchCreateRequest.newBuilder().setKey(ByteString.copyFromUtf8("frag/")).setRangeEnd(ByteString.copyFromUtf8("frag0"))
                .setWatchId(1).setFragment(true));
            assertCreated(stream.next(), 1);
            stream.create("frag/", "frag0", 2);
            assertCreated(stream.next(), 2);

            // Four 600 KB values in one revision: 2.4 MB together, over etcd's watch limit of 2 MiB
            // (--max-request-bytes, 1.5 MiB, plus gRPC's 512 KiB overhead: v3rpc watch.go).
            final byte[] big = new byte[600_000];
            fixture.engine.txn(Txn.of(List.of(), List.of(Op.put(Keys.utf8("frag/a"), big), Op.put(Keys.utf8("frag/b"), big),
                Op.put(Keys.utf8("frag/c"), big), Op.put(Keys.utf8("frag/d"), big)), List.of()));

            final Map<Long, List<WatchResponse>> byWatch = new HashMap<>();
            while (byWatch.getOrDefault(1L, List.of()).size() < 2 || byWatch.getOrDefault(2L, List.of()).isEmpty())
            {
                final WatchResponse response = stream.next();
                byWatch.computeIfAbsent(response.getWatchId(), id -> new ArrayList<>()).add(response);
            }
            final List<WatchResponse> fragments = byWatch.get(1L);
            assertEquals(3, fragments.get(0).getEventsCount());
            assertTrue(fragments.get(0).getFragment());
            assertTrue(fragments.get(0).getSerializedSize() < 2_097_152, "below etcd's default watch limit");
            assertEquals(1, fragments.get(1).getEventsCount());
            assertFalse(fragments.get(1).getFragment(), "the last fragment is not marked");
            final WatchResponse whole = byWatch.get(2L).get(0);
            assertEquals(4, whole.getEventsCount());
            assertFalse(whole.getFragment());
        }
    }

    @Test
    void cancelAnswersAndStopsTheWatch() throws Exception
    {
        try (RawWatchStream stream = new RawWatchStream(fixture.channel, true))
        {
            stream.create("c/a", "", 3);
            assertCreated(stream.next(), 3);
            stream.create("c/a", "", 4);
            assertCreated(stream.next(), 4);
            stream.cancel(3);
            final WatchResponse canceled = stream.next();
            assertEquals(3, canceled.getWatchId());
            assertTrue(canceled.getCanceled());
            fixture.engine.put("c/a", "x");
            final WatchResponse event = stream.next();
            assertEquals(4, event.getWatchId(), "only the remaining watch reports the put");
            stream.cancel(99);
            stream.requestProgress();
            final WatchResponse progress = stream.next();
            assertEquals(-1, progress.getWatchId(), "an unknown watch id is not answered; the progress response comes next");
        }
    }

    @Test
    void refusedCreatesAreCanceledWithEtcdsReasons() throws Exception
    {
        try (RawWatchStream stream = new RawWatchStream(fixture.channel, true))
        {
            stream.create("r/b", "r/a", 0);
            final WatchResponse empty = stream.next();
            assertTrue(empty.getCreated() && empty.getCanceled());
            assertEquals(EtcdErrors.EMPTY_WATCHER_RANGE, empty.getCancelReason());
        }
    }

    @Test
    void progressRequestAnswersOnceEveryWatchHasCaughtUp() throws Exception
    {
        try (RawWatchStream stream = new RawWatchStream(fixture.channel, true))
        {
            stream.create("p/", "p0", 0);
            assertCreated(stream.next(), 0);
            stream.create("p/x", "", 0);
            assertCreated(stream.next(), 1);
            final long written = fixture.engine.put("p/a", "1").revision();
            stream.requestProgress();
            boolean sawEvent = false;
            WatchResponse response = stream.next();
            while (response.getWatchId() != -1)
            {
                sawEvent |= response.getEventsCount() > 0;
                response = stream.next();
            }
            assertTrue(sawEvent, "the event comes before the progress response");
            assertEquals(0, response.getEventsCount());
            assertTrue(response.getHeader().getRevision() >= written);
        }
    }

    @Test
    void progressNotifyWatchesGetPeriodicProgress() throws Exception
    {
        try (RawWatchStream stream = new RawWatchStream(fixture.channel, true))
        {
            stream.create(WatchCreateRequest.newBuilder().setKey(ByteString.copyFromUtf8("pn/a")).setProgressNotify(true).setWatchId(5));
            assertCreated(stream.next(), 5);
            final long revision = fixture.engine.put("other", "x").revision();
            WatchResponse progress = stream.next();
            while (progress.getHeader().getRevision() < revision)
            {
                progress = stream.next();
            }
            assertEquals(5, progress.getWatchId());
            assertEquals(0, progress.getEventsCount());
            assertFalse(progress.getCanceled());
        }
    }

    private static void assertCreated(final WatchResponse response, final long watchId)
    {
        assertTrue(response.getCreated(), () -> "not a created response: " + response);
        assertFalse(response.getCanceled(), () -> "canceled: " + response.getCancelReason());
        assertEquals(watchId, response.getWatchId());
        assertEquals(fixture.server.member().memberId(), response.getHeader().getMemberId());
    }
}
