package io.ringwatch.server.differential;

import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import io.ringwatch.server.api.etcdserverpb.KVGrpc;
import io.ringwatch.server.api.etcdserverpb.LeaseGrpc;
import io.ringwatch.server.api.etcdserverpb.ResponseHeader;
import io.ringwatch.server.api.etcdserverpb.WatchGrpc;
import io.ringwatch.server.api.etcdserverpb.WatchRequest;

import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * One server under test as the harness sees it: a raw gRPC channel, blocking stubs with a
 * deadline, and one watch stream whose answers go to a {@link WatchLog}. Used by the test's
 * thread only (the log is filled by gRPC's).
 */
final class Side implements AutoCloseable
{
    private static final long DEADLINE_SECONDS = 20;

    final String name;
    private final ManagedChannel channel;
    final WatchLog watchLog = new WatchLog();
    private final StreamObserver<WatchRequest> watchRequests;

    Side(final String name, final int port)
    {
        this.name = name;
        this.channel = NettyChannelBuilder.forAddress("127.0.0.1", port).usePlaintext()
            .maxInboundMessageSize(64 << 20).build();
        this.watchRequests = WatchGrpc.newStub(channel).watch(watchLog);
    }

    KVGrpc.KVBlockingStub kv()
    {
        return KVGrpc.newBlockingStub(channel).withDeadlineAfter(DEADLINE_SECONDS, TimeUnit.SECONDS);
    }

    LeaseGrpc.LeaseBlockingStub lease()
    {
        return LeaseGrpc.newBlockingStub(channel).withDeadlineAfter(DEADLINE_SECONDS, TimeUnit.SECONDS);
    }

    void watch(final WatchRequest request)
    {
        watchRequests.onNext(request);
    }

    /** A unary call's answer: normalised text, and its header's revision (-1 for an error). */
    record Answer(String text, long revision)
    {
    }

    /**
     * @param call a unary call on this side.
     * @return its answer, normalised, or its error as "ERROR code: message".
     */
    Answer call(final Function<Side, Message> call)
    {
        try
        {
            final Message answer = call.apply(this);
            final FieldDescriptor header = answer.getDescriptorForType().findFieldByName("header");
            final long revision = header == null ? -1 : ((ResponseHeader) answer.getField(header)).getRevision();
            return new Answer(Normalise.text(answer), revision);
        }
        catch (final StatusRuntimeException e)
        {
            return new Answer("ERROR " + e.getStatus().getCode() + ": " + e.getStatus().getDescription(), -1);
        }
    }

    @Override
    public void close() throws InterruptedException
    {
        try
        {
            watchRequests.onCompleted();
        }
        catch (final RuntimeException ignored)
        {
            // the stream may have ended already
        }
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
}
