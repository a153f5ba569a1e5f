package io.ringwatch.server;

import com.google.protobuf.ByteString;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.Keys;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.Txn;
import io.ringwatch.server.api.etcdserverpb.WatchCreateRequest;
import io.ringwatch.server.api.etcdserverpb.WatchResponse;
import io.ringwatch.server.api.mvccpb.Event;
import io.ringwatch.server.kv.EtcdLimits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URI;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How events are batched into watch responses, as etcd 3.5 does: a revision's events are never
 * split over responses unless the watch asked for {@code fragment} (mvcc's notify sends one
 * revision per response, its syncWatchers whole revisions, at most watchBatchMaxRevs, 1,000, per
 * response), however many events the revision holds; a watch created with {@code fragment} is
 * split below the server's --max-request-bytes plus gRPC's 512 KiB overhead, as etcd's watch server
 * (v3rpc watch.go NewWatchServer and sendFragments), header included.
 */
class WatchBatchingTest
{
    @RegisterExtension
    static final ServerFixture fixture = new ServerFixture();

    @Test
    void aRevisionOfManyEventsGoesInOneResponse() throws Exception
    {
        for (int i = 0; i < 300; i++)
        {
            fixture.engine.put(String.format("wb/one/%03d", i), "x");
        }
        try (RawWatchStream stream = new RawWatchStream(fixture.channel, true))
        {
            stream.create("wb/one/", "wb/one0", 1);
            assertTrue(stream.next().getCreated());
            final long revision = fixture.engine.delete(KeyRange.prefix("wb/one/")).revision();
            final WatchResponse response = stream.next();
            assertEquals(300, response.getEventsCount(), "one revision's 300 deletes in one response");
            for (final Event event : response.getEventsList())
            {
                assertEquals(revision, event.getKv().getModRevision());
            }
        }
    }

    @Test
    void aCatchingUpWatchGetsWholeRevisionsAtMostAThousandPerResponse() throws Exception
    {
        final long start = fixture.engine.currentRevision() + 1;
        for (int i = 0; i < 300; i++)
        {
            fixture.engine.put(String.format("wb/up/%03d", i), "x");
        }
        final long deletes = fixture.engine.delete(KeyRange.prefix("wb/up/")).revision();
        for (int i = 0; i < 1_200; i++)
        {
            fixture.engine.put("wb/up/k" + (i % 7), "x");
        }
        final List<Op> many = new ArrayList<>();
        for (int i = 0; i < 100; i++)
        {
            many.add(Op.put(Keys.utf8("wb/up/t" + i), new byte[] {1}));
        }
        fixture.engine.txn(Txn.of(List.of(), many, List.of()));
        final int expected = 300 + 300 + 1_200 + 100;
        try (RawWatchStream stream = new RawWatchStream(fixture.channel, true))
        {
            stream.create(WatchCreateRequest.newBuilder().setKey(ByteString.copyFromUtf8("wb/up/"))
                .setRangeEnd(ByteString.copyFromUtf8("wb/up0")).setStartRevision(start).setWatchId(1));
            assertTrue(stream.next().getCreated());
            final Map<Long, Integer> responseOfRevision = new HashMap<>();
            int events = 0;
            int responses = 0;
            while (events < expected)
            {
                final WatchResponse response = stream.next();
                final Set<Long> revisions = new LinkedHashSet<>();
                for (final Event event : response.getEventsList())
                {
                    revisions.add(event.getKv().getModRevision());
                }
                assertTrue(revisions.size() <= 1_000, () -> revisions.size() + " revisions in one response");
                for (final long revision : revisions)
                {
                    final Integer before = responseOfRevision.put(revision, responses);
                    assertTrue(before == null, "revision " + revision + " split over responses " + before + " and " + responses);
                }
                events += response.getEventsCount();
                responses++;
            }
            assertEquals(expected, events);
            assertTrue(responseOfRevision.containsKey(deletes));
        }
    }

    @Test
    void fragmentsStayBelowTheConfiguredMaxRequestBytesPlusGrpcsOverhead() throws Exception
    {
        // etcd's watch server fragments below --max-request-bytes + 512 KiB (v3rpc watch.go).
        final int limit = (64 << 10) + EtcdLimits.GRPC_OVERHEAD_BYTES;
        try (ServerFixture small = new ServerFixture().start(ServerOptions.builder().name("fragments")
            .listenClientUrl(URI.create("http://127.0.0.1:0")).maxRequestBytes(64 << 10));
             RawWatchStream stream = new RawWatchStream(small.channel, true))
        {
            stream.create(WatchCreateRequest.newBuilder().setKey(ByteString.copyFromUtf8("wb/f/"))
                .setRangeEnd(ByteString.copyFromUtf8("wb/f0")).setWatchId(1).setFragment(true));
            assertTrue(stream.next().getCreated());
            stream.create("wb/f/", "wb/f0", 2);
            assertTrue(stream.next().getCreated());
            // Four 200,000-byte values in one revision: 800 KB, over the 576 KiB limit.
            final byte[] value = new byte[200_000];
            final List<Op> puts = new ArrayList<>();
            for (int i = 0; i < 4; i++)
            {
                puts.add(Op.put(Keys.utf8("wb/f/" + i), value));
            }
            small.engine.txn(Txn.of(List.of(), puts, List.of()));
            final Map<Long, List<WatchResponse>> byWatch = new HashMap<>();
            int fragmented = 0;
            while (fragmented < 4 || byWatch.getOrDefault(2L, List.of()).isEmpty())
            {
                final WatchResponse response = stream.next();
                byWatch.computeIfAbsent(response.getWatchId(), id -> new ArrayList<>()).add(response);
                if (response.getWatchId() == 1)
                {
                    fragmented += response.getEventsCount();
                }
            }
            final List<WatchResponse> fragments = byWatch.get(1L);
            assertEquals(2, fragments.size(), "greedy below 576 KiB: two events, then two");
            assertEquals(2, fragments.get(0).getEventsCount());
            assertTrue(fragments.get(0).getFragment());
            assertTrue(fragments.get(0).getSerializedSize() < limit, () -> fragments.get(0).getSerializedSize() + " bytes");
            assertEquals(2, fragments.get(1).getEventsCount());
            assertFalse(fragments.get(1).getFragment(), "the last fragment is not marked");
            assertEquals(1, byWatch.get(2L).size(), "without fragment: one response");
            assertEquals(4, byWatch.get(2L).get(0).getEventsCount());
        }
    }

    @Test
    void aWatchInStepNeverSeesARevisionSplitWhileTransactionsArrive() throws Exception
    {
        final int txns = 300;
        final int putsPerTxn = 60;
        try (RawWatchStream stream = new RawWatchStream(fixture.channel, true))
        {
            stream.create("wb/live/", "wb/live0", 1);
            assertTrue(stream.next().getCreated());
            final Thread writer = new Thread(() ->
            {
                for (int t = 0; t < txns; t++)
                {
                    final List<Op> puts = new ArrayList<>();
                    for (int i = 0; i < putsPerTxn; i++)
                    {
                        puts.add(Op.put(Keys.utf8("wb/live/" + i), new byte[] {(byte)t}));
                    }
                    fixture.engine.txn(Txn.of(List.of(), puts, List.of()));
                }
            }, "batching-writer");
            writer.start();
            final Map<Long, Integer> eventsOfRevision = new HashMap<>();
            int events = 0;
            while (events < txns * putsPerTxn)
            {
                final WatchResponse response = stream.next();
                final Map<Long, Integer> here = new HashMap<>();
                for (final Event event : response.getEventsList())
                {
                    here.merge(event.getKv().getModRevision(), 1, Integer::sum);
                }
                for (final Map.Entry<Long, Integer> revision : here.entrySet())
                {
                    assertEquals(putsPerTxn, revision.getValue(), "revision " + revision.getKey() + " split");
                    assertTrue(eventsOfRevision.put(revision.getKey(), revision.getValue()) == null);
                }
                events += response.getEventsCount();
            }
            writer.join();
            assertEquals(txns, eventsOfRevision.size());
        }
    }
}
