package io.ringwatch.server;

import com.google.protobuf.ByteString;
import io.grpc.CallOptions;
import io.grpc.MethodDescriptor;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.ProtoUtils;
import io.grpc.stub.ClientCalls;
import io.ringwatch.server.api.etcdserverpb.KVGrpc;
import io.ringwatch.server.api.etcdserverpb.PutRequest;
import io.ringwatch.server.api.etcdserverpb.RangeRequest;
import io.ringwatch.server.api.etcdserverpb.RangeResponse;
import io.ringwatch.server.api.etcdserverpb.RequestOp;
import io.ringwatch.server.api.etcdserverpb.TxnRequest;
import io.ringwatch.server.api.etcdserverpb.TxnResponse;
import io.ringwatch.server.api.etcdserverpb.WatchCreateRequest;
import io.ringwatch.server.api.etcdserverpb.WatchResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Hostile-client probes against etcd 3.5.22's rules as its source has them: watch create/cancel
 * storms on one stream, cancels of ids never created, a watch id reused after its cancel, Range
 * option combinations (applierV3backend.Range: count before the revision filters, sort then
 * limit, count_only with nothing else), and a chain of nested transactions as deep as etcd's
 * --max-txn-ops budget allows (checkTxnRequest hands each level what its parent left).
 */
class ServerProbesTest
{
    @RegisterExtension
    static final ServerFixture fixture = new ServerFixture();

    private static ByteString b(final String s)
    {
        return ByteString.copyFromUtf8(s);
    }

    private static KVGrpc.KVBlockingStub kv()
    {
        return KVGrpc.newBlockingStub(fixture.channel);
    }

    @Test
    void aStormOfCreatesAndCancelsOnOneStreamLeavesNoWatcher() throws Exception
    {
        final int before = fixture.engine.watcherCount();
        final int watches = 3_000;
        try (RawWatchStream stream = new RawWatchStream(fixture.channel, true))
        {
            for (int i = 0; i < watches; i++)
            {
                stream.create("st/" + (i % 10), "", 0);
                if (i % 2 == 1)
                {
                    stream.cancel(i - 1);
                }
            }
            int created = 0;
            int canceled = 0;
            while (created < watches || canceled < watches / 2)
            {
                final WatchResponse response = stream.next();
                if (response.getCreated())
                {
                    assertEquals(created, response.getWatchId(), "automatic ids in order");
                    created++;
                }
                else
                {
                    assertTrue(response.getCanceled(), response::toString);
                    assertEquals(0, response.getWatchId() % 2, response::toString);
                    canceled++;
                }
            }
            // The engine counts a watcher once its dispatcher has taken the registration, which
            // may come after the stream's answer: wait for it (a liveness bound, not a timing).
            awaitWatcherCount(before + watches / 2);
            // Every watch of st/4 was cancelled (even ids); every one of st/3 stands (odd ids).
            fixture.engine.put("st/4", "x");
            final long revision = fixture.engine.put("st/3", "x").revision();
            final List<Long> notified = new ArrayList<>();
            while (notified.size() < watches / 10)
            {
                final WatchResponse response = stream.next();
                assertEquals(revision, response.getEvents(0).getKv().getModRevision());
                assertEquals(1, response.getWatchId() % 2, "only the watches not cancelled: " + response.getWatchId());
                notified.add(response.getWatchId());
            }
            assertNull(stream.responses.poll(200, TimeUnit.MILLISECONDS));
        }
        awaitWatcherCount(before);
    }

    /** Waits up to 10 s until the engine counts {@code expected} watchers, then asserts it does. */
    private static void awaitWatcherCount(final int expected) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (fixture.engine.watcherCount() != expected && System.nanoTime() < deadline)
        {
            Thread.sleep(10);
        }
        assertEquals(expected, fixture.engine.watcherCount());
    }

    @Test
    void cancelsOfIdsNeverCreatedAreSilentAndAnIdIsReusableAfterItsCancel() throws Exception
    {
        try (RawWatchStream stream = new RawWatchStream(fixture.channel, true))
        {
            stream.cancel(42);
            stream.cancel(-1);
            stream.cancel(Long.MAX_VALUE);
            stream.create("ru/a", "", 5);
            final WatchResponse first = stream.next();
            assertTrue(first.getCreated() && first.getWatchId() == 5, () -> "the cancels of unknown ids answered nothing: " + first);
            stream.cancel(5);
            assertTrue(stream.next().getCanceled());
            stream.cancel(5);
            stream.create("ru/b", "", 5);
            final WatchResponse again = stream.next();
            assertTrue(again.getCreated() && !again.getCanceled() && again.getWatchId() == 5, again::toString);
            fixture.engine.put("ru/a", "x");
            final long revision = fixture.engine.put("ru/b", "x").revision();
            final WatchResponse event = stream.next();
            assertEquals(5, event.getWatchId());
            assertEquals(1, event.getEventsCount(), "only the new watch's key");
            assertEquals(revision, event.getEvents(0).getKv().getModRevision());
        }
    }

    @Test
    void rangeOptionsCombineAsEtcds()
    {
        for (int i = 0; i < 6; i++)
        {
            kv().put(PutRequest.newBuilder().setKey(b("rc/" + i)).setValue(b("v" + (5 - i))).build());
        }
        final long middle = fixture.engine.currentRevision();
        kv().put(PutRequest.newBuilder().setKey(b("rc/2")).setValue(b("w")).build());
        kv().put(PutRequest.newBuilder().setKey(b("rc/9")).setValue(b("z")).build());
        final RangeRequest all = RangeRequest.newBuilder().setKey(b("rc/")).setRangeEnd(b("rc0")).build();

        // Sort then limit: the two highest mod revisions, at a past revision.
        final RangeResponse top = kv().range(all.toBuilder().setRevision(middle).setLimit(2)
            .setSortTarget(RangeRequest.SortTarget.MOD).setSortOrder(RangeRequest.SortOrder.DESCEND).build());
        assertEquals(List.of("rc/5", "rc/4"), keys(top));
        assertEquals(6, top.getCount());
        assertTrue(top.getMore());
        assertEquals(fixture.engine.currentRevision(), top.getHeader().getRevision(), "the header is the store's revision");

        // Count is the range's size before the revision filters; more follows what the filters kept.
        final RangeResponse filtered = kv().range(all.toBuilder().setMinModRevision(middle + 1).setLimit(1).build());
        assertEquals(List.of("rc/2"), keys(filtered));
        assertEquals(7, filtered.getCount());
        assertTrue(filtered.getMore());
        final RangeResponse exact = kv().range(all.toBuilder().setMinModRevision(middle + 1).setLimit(2).build());
        assertFalse(exact.getMore(), "two kept, limit two");

        // count_only: the count at the revision, no key-values, no more, whatever the limit, sort and filters.
        final RangeResponse counted = kv().range(all.toBuilder().setRevision(middle).setCountOnly(true).setLimit(1)
            .setSortTarget(RangeRequest.SortTarget.VALUE).setMinCreateRevision(middle).build());
        assertEquals(6, counted.getCount());
        assertEquals(0, counted.getKvsCount());
        assertFalse(counted.getMore());

        // Sort by value ascending without an order (a target other than the key implies ASCEND); keys_only.
        final RangeResponse byValue = kv().range(all.toBuilder().setSortTarget(RangeRequest.SortTarget.VALUE)
            .setKeysOnly(true).setLimit(3).build());
        assertEquals(List.of("rc/5", "rc/4", "rc/3"), keys(byValue));
        assertTrue(byValue.getKvs(0).getValue().isEmpty());

        // A negative limit is no limit; a negative revision is the current one.
        assertEquals(7, kv().range(all.toBuilder().setLimit(-1).setRevision(-5).build()).getKvsCount());

        // A future revision is refused even with count_only.
        final StatusRuntimeException future = assertThrows(StatusRuntimeException.class,
            () -> kv().range(all.toBuilder().setCountOnly(true).setRevision(fixture.engine.currentRevision() + 1).build()));
        assertEquals("etcdserver: mvcc: required revision is a future revision", future.getStatus().getDescription());
    }

    private static List<String> keys(final RangeResponse response)
    {
        final List<String> keys = new ArrayList<>();
        response.getKvsList().forEach(kv -> keys.add(kv.getKey().toStringUtf8()));
        return keys;
    }

    /** A chain of transactions, each holding only the next, the innermost a put. */
    private static TxnRequest chain(final int depth, final String key)
    {
        TxnRequest txn = TxnRequest.newBuilder().addSuccess(RequestOp.newBuilder().setRequestPut(
            PutRequest.newBuilder().setKey(b(key)).setValue(b("deep")))).build();
        for (int i = 1; i < depth; i++)
        {
            txn = TxnRequest.newBuilder().addSuccess(RequestOp.newBuilder().setRequestTxn(txn)).build();
        }
        return txn;
    }

    /** Txn, its response read with the recursion limit a deep answer needs (protobuf-java's is 100). */
    private static TxnResponse deepTxn(final TxnRequest request)
    {
        final MethodDescriptor<TxnRequest, TxnResponse> txn = KVGrpc.getTxnMethod().toBuilder()
            .setResponseMarshaller(ProtoUtils.marshallerWithRecursionLimit(TxnResponse.getDefaultInstance(), 1_000)).build();
        return ClientCalls.blockingUnaryCall(fixture.channel, txn, CallOptions.DEFAULT, request);
    }

    @Test
    void nestedTransactionsAsDeepAsEtcdsOpBudgetAllows()
    {
        // etcd: each level's budget is its parent's less the parent's op count (1 here): 128 levels
        // hold one op each, the 129th level has none left. Its Go decoder has no nesting limit.
        final TxnResponse deep = deepTxn(chain(128, "nd/a"));
        assertTrue(deep.getSucceeded());
        TxnResponse inner = deep;
        for (int i = 1; i < 128; i++)
        {
            inner = inner.getResponses(0).getResponseTxn();
        }
        assertTrue(inner.getResponses(0).hasResponsePut(), inner::toString);
        assertEquals("deep", new String(fixture.engine.get("nd/a").orElseThrow().value(), java.nio.charset.StandardCharsets.UTF_8));
        final StatusRuntimeException tooDeep = assertThrows(StatusRuntimeException.class, () -> deepTxn(chain(129, "nd/b")));
        assertEquals("etcdserver: too many operations in txn request", tooDeep.getStatus().getDescription());
    }
}
