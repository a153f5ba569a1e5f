package io.ringwatch.perf.peer;

import com.google.protobuf.ByteString;
import io.etcd.jetcd.api.Event;
import io.etcd.jetcd.api.KVGrpc;
import io.etcd.jetcd.api.MaintenanceGrpc;
import io.etcd.jetcd.api.PutRequest;
import io.etcd.jetcd.api.PutResponse;
import io.etcd.jetcd.api.StatusRequest;
import io.etcd.jetcd.api.WatchCreateRequest;
import io.etcd.jetcd.api.WatchGrpc;
import io.etcd.jetcd.api.WatchRequest;
import io.etcd.jetcd.api.WatchResponse;
import io.grpc.ManagedChannel;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import io.ringwatch.perf.load.ValueCodec;

import java.net.URI;
import java.util.Arrays;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

/**
 * {@link EtcdClient} straight over grpc-java's async stubs (etcd's generated classes that
 * jetcd-grpc ships), without jetcd's wrappers: one channel, callbacks on the transport's event loop
 * (a direct executor: no hand-over to another thread per response), every watch on one stream, as
 * jetcd multiplexes its watches (the server answers the creates in order, so each created response
 * names the id of the oldest watch not yet created; jetcd-grpc's classes have no client-chosen id). The lean
 * client that shows what a server costs when the client costs less; it still allocates the
 * protobuf messages per put and per response. Thread-safe.
 */
final class GrpcStubClient implements EtcdClient
{
    private static final long REQUEST_TIMEOUT_SECONDS = 30;

    private final ManagedChannel channel;
    private final KVGrpc.KVStub kv;
    private final Map<Long, EventSink> sinks = new ConcurrentHashMap<>();
    private final Queue<EventSink> creating = new ConcurrentLinkedQueue<>();
    private StreamObserver<WatchRequest> watchStream;

    GrpcStubClient(final String endpoint)
    {
        final URI uri = URI.create(endpoint);
        this.channel = NettyChannelBuilder.forAddress(uri.getHost(), uri.getPort()).usePlaintext().directExecutor().build();
        this.kv = KVGrpc.newStub(channel);
    }

    @Override
    public String description()
    {
        return "grpc-java async stubs";
    }

    @Override
    public String serverVersion()
    {
        try
        {
            return MaintenanceGrpc.newBlockingStub(channel).withDeadlineAfter(REQUEST_TIMEOUT_SECONDS, TimeUnit.SECONDS)
                .status(StatusRequest.getDefaultInstance()).getVersion();
        }
        catch (final RuntimeException e)
        {
            throw new IllegalStateException("etcd at the endpoint did not answer: " + e, e);
        }
    }

    @Override
    public CompletableFuture<Long> put(final byte[] key, final byte[] value, final PutDone done)
    {
        final CompletableFuture<Long> revision = new CompletableFuture<>();
        kv.put(PutRequest.newBuilder().setKey(ByteString.copyFrom(key)).setValue(ByteString.copyFrom(value)).build(),
            new StreamObserver<>()
            {
                @Override
                public void onNext(final PutResponse response)
                {
                    done.done(null);
                    revision.complete(response.getHeader().getRevision());
                }

                @Override
                public void onError(final Throwable error)
                {
                    done.done(error);
                    revision.complete(0L);
                }

                @Override
                public void onCompleted()
                {
                }
            });
        return revision;
    }

    @Override
    public synchronized void watchPrefix(final byte[] prefix, final long fromRevision, final EventSink sink)
    {
        if (watchStream == null)
        {
            watchStream = WatchGrpc.newStub(channel).watch(new Responses());
        }
        creating.add(sink);
        watchStream.onNext(WatchRequest.newBuilder().setCreateRequest(WatchCreateRequest.newBuilder()
            .setKey(ByteString.copyFrom(prefix)).setRangeEnd(ByteString.copyFrom(prefixEnd(prefix)))
            .setStartRevision(fromRevision)).build());
    }

    @Override
    public synchronized void close()
    {
        if (watchStream != null)
        {
            watchStream.onCompleted();
        }
        channel.shutdownNow();
        try
        {
            channel.awaitTermination(REQUEST_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
    }

    /** etcd's prefix convention: the prefix with its last byte below 0xff incremented, the rest dropped. */
    private static byte[] prefixEnd(final byte[] prefix)
    {
        for (int i = prefix.length - 1; i >= 0; i--)
        {
            if (prefix[i] != (byte)0xff)
            {
                final byte[] end = Arrays.copyOf(prefix, i + 1);
                end[i]++;
                return end;
            }
        }
        return new byte[] {0};
    }

    /** The shared watch stream's responses, routed to each watch's sink by watch id. */
    private final class Responses implements StreamObserver<WatchResponse>
    {
        @Override
        public void onNext(final WatchResponse response)
        {
            final long now = System.nanoTime();
            if (response.getCreated())
            {
                final EventSink created = creating.poll();
                if (created != null && !response.getCanceled())
                {
                    sinks.put(response.getWatchId(), created);
                }
                else if (created != null)
                {
                    created.onError(new IllegalStateException("watch refused: " + response.getCancelReason()));
                }
                return;
            }
            final EventSink sink = sinks.get(response.getWatchId());
            if (sink == null)
            {
                return;
            }
            if (response.getCanceled())
            {
                sink.onError(new IllegalStateException("watch " + response.getWatchId() + " canceled: " + response.getCancelReason()));
                return;
            }
            for (final Event event : response.getEventsList())
            {
                sink.onEvent(ValueCodec.intendedNanos(event.getKv().getValue().substring(0, Long.BYTES).toByteArray()), now);
            }
        }

        @Override
        public void onError(final Throwable error)
        {
            for (final EventSink sink : sinks.values())
            {
                sink.onError(error);
            }
        }

        @Override
        public void onCompleted()
        {
        }
    }
}
