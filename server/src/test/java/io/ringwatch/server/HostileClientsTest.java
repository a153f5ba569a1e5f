package io.ringwatch.server;

import com.google.common.util.concurrent.ListenableFuture;
import com.google.protobuf.ByteString;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.ringwatch.server.api.etcdserverpb.KVGrpc;
import io.ringwatch.server.api.etcdserverpb.PutRequest;
import io.ringwatch.server.api.etcdserverpb.RangeRequest;
import io.ringwatch.server.api.etcdserverpb.RangeResponse;
import io.ringwatch.server.api.etcdserverpb.RequestOp;
import io.ringwatch.server.api.etcdserverpb.TxnRequest;
import io.ringwatch.server.api.etcdserverpb.TxnResponse;
import io.ringwatch.server.api.etcdserverpb.WatchCreateRequest;
import io.ringwatch.server.api.etcdserverpb.WatchResponse;
import io.ringwatch.server.api.mvccpb.KeyValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Clients that abuse the server as etcd's known failures did: ten thousand watches created on one
 * stream and the connection dropped (every engine watcher must end), unary transactions cancelled
 * in flight (RST_STREAM: each applies whole or not at all), a flood of progress requests (answered
 * in bounded number, the stream still served). Each time the server goes on serving.
 */
class HostileClientsTest
{
    @RegisterExtension
    static final ServerFixture fixture = new ServerFixture();

    private static ByteString b(final String s)
    {
        return ByteString.copyFromUtf8(s);
    }

    /** Waits until {@code count} live engine watchers watch a key under {@code prefix}. */
    private static void awaitWatchers(final String prefix, final long count) throws InterruptedException
    {
        final long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (watchers(prefix) != count && System.nanoTime() < deadline)
        {
            Thread.sleep(20);
        }
        assertEquals(count, watchers(prefix));
    }

    private static long watchers(final String prefix)
    {
        return fixture.engine.watchers().stream()
            .filter(w -> w.request().range().toString().startsWith("key(" + prefix) && w.cancelReason() == null)
            .count();
    }

    @Test
    void tenThousandWatchesThenADroppedConnectionLeaveNoWatcher() throws Exception
    {
        final int watches = 10_000;
        final ManagedChannel doomed = NettyChannelBuilder.forAddress("127.0.0.1", fixture.server.port()).usePlaintext().build();
        final RawWatchStream stream = new RawWatchStream(doomed, true);
        for (int i = 1; i <= watches; i++)
        {
            stream.create(WatchCreateRequest.newBuilder().setKey(b("tk/" + (i % 100))).setWatchId(i).setPrevKv(true));
        }
        for (int i = 1; i <= watches; i++)
        {
            assertTrue(stream.next().getCreated());
        }
        awaitWatchers("tk/", watches);
        fixture.engine.put("tk/7", "x");
        doomed.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
        awaitWatchers("tk/", 0);

        try (RawWatchStream other = new RawWatchStream(fixture.channel, true))
        {
            other.create(WatchCreateRequest.newBuilder().setKey(b("tk/7")).setWatchId(1));
            assertTrue(other.next().getCreated());
            final long revision = fixture.engine.put("tk/7", "y").revision();
            assertEquals(revision, other.next().getEvents(0).getKv().getModRevision());
        }
    }

    @Test
    void transactionsCancelledInFlightApplyWholeOrNotAtAll() throws Exception
    {
        final KVGrpc.KVFutureStub kv = KVGrpc.newFutureStub(fixture.channel);
        final int txns = 300;
        final List<ListenableFuture<TxnResponse>> calls = new ArrayList<>(txns);
        for (int i = 0; i < txns; i++)
        {
            final TxnRequest.Builder txn = TxnRequest.newBuilder();
            for (final String part : List.of("a", "b", "c"))
            {
                txn.addSuccess(RequestOp.newBuilder().setRequestPut(PutRequest.newBuilder().setKey(b("ct/" + i + "/" + part))
                    .setValue(b("v")).setPrevKv(true)));
            }
            calls.add(kv.txn(txn.build()));
            if (i % 2 == 0)
            {
                calls.get(i).cancel(true);
            }
        }
        for (int i = 1; i < txns; i += 2)
        {
            assertTrue(calls.get(i).get(30, TimeUnit.SECONDS).getSucceeded());
        }
        final RangeResponse all = KVGrpc.newBlockingStub(fixture.channel)
            .range(RangeRequest.newBuilder().setKey(b("ct/")).setRangeEnd(b("ct0")).build());
        final int[] parts = new int[txns];
        final long[] revisions = new long[txns];
        for (final KeyValue kvs : all.getKvsList())
        {
            final int txn = Integer.parseInt(kvs.getKey().toStringUtf8().split("/")[1]);
            parts[txn]++;
            assertTrue(revisions[txn] == 0 || revisions[txn] == kvs.getModRevision(), "one revision per transaction");
            revisions[txn] = kvs.getModRevision();
        }
        for (int i = 0; i < txns; i++)
        {
            assertTrue(parts[i] == 0 || parts[i] == 3, "transaction " + i + " applied " + parts[i] + " of its 3 puts");
            if (i % 2 == 1)
            {
                assertEquals(3, parts[i]);
            }
        }
    }

    @Test
    void aFloodOfProgressRequestsIsAnsweredBoundedAndTheStreamGoesOn() throws Exception
    {
        try (RawWatchStream stream = new RawWatchStream(fixture.channel, true))
        {
            stream.create(WatchCreateRequest.newBuilder().setKey(b("pf/")).setRangeEnd(b("pf0")).setWatchId(1));
            assertTrue(stream.next().getCreated());
            final int requests = 10_000;
            for (int i = 0; i < requests; i++)
            {
                stream.requestProgress();
                if (i % 1_000 == 0)
                {
                    fixture.engine.put("pf/" + i, "v");
                }
            }
            final long last = fixture.engine.put("pf/last", "v").revision();
            int progress = 0;
            boolean sawLast = false;
            while (!sawLast)
            {
                final WatchResponse response = stream.next();
                progress += response.getWatchId() == -1 ? 1 : 0;
                sawLast = response.getEventsList().stream().anyMatch(e -> e.getKv().getModRevision() == last);
            }
            assertTrue(progress >= 1 && progress <= requests, () -> "progress answers: " + stream.responses.size());
            stream.requestProgress();
            WatchResponse response = stream.next();
            while (response.getWatchId() != -1 || response.getHeader().getRevision() < last)
            {
                response = stream.next();
            }
            assertEquals(last, response.getHeader().getRevision(), "a request after the flood is answered at the current revision");
        }
    }
}
