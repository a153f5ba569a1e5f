package io.ringwatch.server;

import com.google.protobuf.ByteString;
import io.etcd.jetcd.kv.PutResponse;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.options.WatchOption;
import io.etcd.jetcd.watch.WatchEvent;
import io.grpc.ManagedChannel;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.server.api.etcdserverpb.WatchCreateRequest;
import io.ringwatch.server.api.etcdserverpb.WatchGrpc;
import io.ringwatch.server.api.etcdserverpb.WatchRequest;
import io.ringwatch.server.api.etcdserverpb.WatchResponse;
import io.ringwatch.server.api.mvccpb.Event;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static io.ringwatch.server.ServerFixture.bytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The fan-out overload with write admission, on an in-memory engine whose watch window holds
 * {@value #WINDOW} events: a jetcd writer puts {@value #WRITES} keys flat out, many times the
 * window, while watchers that read, but slowly, watch them all: {@value #SLOW_READERS} streams
 * whose client takes each response only after it has dealt with the previous one (gRPC flow
 * control with a small window, so that the server sees how slowly they read; a jetcd listener
 * cannot show it, its client buffers whatever arrives), and one jetcd watcher. Without admission
 * the slow watches fall out of the window and are cancelled as compacted; with it every write is
 * acknowledged, no watch is cancelled, and each gets every event once, in order. That the writer
 * really was held back is checked too (the gate held calls), so the test cannot pass by the
 * readers simply keeping up. Asserts on counts and order, never on time.
 */
class WriteAdmissionOverloadTest
{
    private static final int WINDOW = 256;
    private static final int WRITES = 2_000;
    private static final int IN_FLIGHT = 64;
    /** Large enough that the slow readers' transport buffers hold a small part of the writes. */
    private static final int VALUE_BYTES = 1_024;
    private static final int SLOW_READERS = 4;
    /** What each event costs a slow reader: 500 events a second at most, far slower than the writer. */
    private static final long READ_NANOS_PER_EVENT = 2_000_000;
    /** The slow readers' HTTP/2 window, fixed (no auto-tuning): the server sees them fall behind. */
    private static final int SLOW_WINDOW = 64 * 1024;
    private static final long WAIT_SECONDS = 120;

    private ServerFixture fixture;
    private ManagedChannel slowChannel;

    @BeforeEach
    void start()
    {
        fixture = new ServerFixture(RingWatchConfig.builder().name("admission").windowCapacity(WINDOW, WINDOW).build()).start();
        slowChannel = fixture.channelWithWindow(SLOW_WINDOW);
    }

    @AfterEach
    void stop() throws InterruptedException
    {
        fixture.close();
    }

    @Test
    void slowReadersAreNeitherCancelledNorMissAnEventWhileAWriterGoesFlatOut() throws Exception
    {
        final long first = fixture.engine.currentRevision() + 1;
        final List<Reader> readers = new ArrayList<>();
        for (int i = 0; i < SLOW_READERS; i++)
        {
            final SlowReader reader = new SlowReader();
            WatchGrpc.newStub(slowChannel).watch(reader);
            reader.watch(first);
            readers.add(reader);
        }
        final JetcdReader jetcd = new JetcdReader();
        readers.add(jetcd);
        try (Watch.Watcher ignored = fixture.client.getWatchClient().watch(bytes("o/"),
            WatchOption.builder().isPrefix(true).withRevision(first).build(), jetcd))
        {
            final List<CompletableFuture<PutResponse>> puts = fixture.putFlatOut(WRITES, IN_FLIGHT, i -> String.format("o/%05d", i),
                bytes("v".repeat(VALUE_BYTES)));
            for (final CompletableFuture<PutResponse> put : puts)
            {
                put.get(WAIT_SECONDS, TimeUnit.SECONDS);
            }
            assertEquals(first + WRITES - 1, fixture.engine.currentRevision(), "every write was acknowledged and applied");

            final List<Long> expected = new ArrayList<>(WRITES);
            for (long revision = first; revision < first + WRITES; revision++)
            {
                expected.add(revision);
            }
            for (int i = 0; i < readers.size(); i++)
            {
                final Reader reader = readers.get(i);
                assertTrue(reader.awaitEvents(WRITES), "reader " + i + " got " + reader.revisions.size() + " of " + WRITES +
                    " events; ended with: " + reader.ends);
                assertEquals(List.of(), reader.ends, "reader " + i + "'s watch was neither cancelled nor failed");
                assertEquals(expected, reader.revisions, "reader " + i + " got every event once, in order");
            }
        }
        assertTrue(fixture.server.writeGate().heldTotal() > 0, "the writer was held back: the readers could not keep up alone");
        assertEquals(0, fixture.server.writeGate().refused(), "no write was refused");
    }

    /** What a reader got: the events' revisions, and how its watch ended if it did. */
    private abstract static class Reader
    {
        final List<Long> revisions = new CopyOnWriteArrayList<>();
        final List<Object> ends = new CopyOnWriteArrayList<>();

        boolean awaitEvents(final int count) throws InterruptedException
        {
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
            while (revisions.size() < count && ends.isEmpty() && System.nanoTime() < deadline)
            {
                Thread.sleep(10);
            }
            return revisions.size() >= count;
        }
    }

    /** A raw watch stream that asks for the next response only after dealing with the last one. */
    private static final class SlowReader extends Reader implements ClientResponseObserver<WatchRequest, WatchResponse>
    {
        private ClientCallStreamObserver<WatchRequest> requests;

        @Override
        public void beforeStart(final ClientCallStreamObserver<WatchRequest> requestStream)
        {
            requests = requestStream;
            requestStream.disableAutoRequestWithInitial(1);
        }

        void watch(final long from)
        {
            requests.onNext(WatchRequest.newBuilder().setCreateRequest(WatchCreateRequest.newBuilder()
                .setKey(ByteString.copyFromUtf8("o/")).setRangeEnd(ByteString.copyFromUtf8("o0")).setStartRevision(from)).build());
        }

        @Override
        public void onNext(final WatchResponse response)
        {
            if (response.getCanceled())
            {
                ends.add(response);
            }
            for (final Event event : response.getEventsList())
            {
                revisions.add(event.getKv().getModRevision());
            }
            LockSupport.parkNanos(READ_NANOS_PER_EVENT * response.getEventsCount());
            requests.request(1);
        }

        @Override
        public void onError(final Throwable t)
        {
            ends.add(t);
        }

        @Override
        public void onCompleted()
        {
            ends.add("completed");
        }
    }

    /** A jetcd listener. */
    private static final class JetcdReader extends Reader implements Watch.Listener
    {
        @Override
        public void onNext(final io.etcd.jetcd.watch.WatchResponse response)
        {
            for (final WatchEvent event : response.getEvents())
            {
                revisions.add(event.getKeyValue().getModRevision());
            }
        }

        @Override
        public void onError(final Throwable throwable)
        {
            ends.add(throwable);
        }

        @Override
        public void onCompleted()
        {
            ends.add("completed");
        }
    }
}
