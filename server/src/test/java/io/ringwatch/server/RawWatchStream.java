package io.ringwatch.server;

import com.google.protobuf.ByteString;
import io.grpc.ManagedChannel;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import io.ringwatch.server.api.etcdserverpb.WatchCancelRequest;
import io.ringwatch.server.api.etcdserverpb.WatchCreateRequest;
import io.ringwatch.server.api.etcdserverpb.WatchGrpc;
import io.ringwatch.server.api.etcdserverpb.WatchProgressRequest;
import io.ringwatch.server.api.etcdserverpb.WatchRequest;
import io.ringwatch.server.api.etcdserverpb.WatchResponse;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * One watch stream driven by the raw generated stub, for what jetcd does not send (watch ids,
 * progress requests, many watches on one stream) and for gRPC flow control: a stream opened with
 * {@code reading = false} never asks for a response after the first. Closing it cancels the call.
 */
final class RawWatchStream implements ClientResponseObserver<WatchRequest, WatchResponse>, AutoCloseable
{
    static final long WAIT_SECONDS = 20;

    final BlockingQueue<WatchResponse> responses = new LinkedBlockingQueue<>();
    private final boolean reading;
    private ClientCallStreamObserver<WatchRequest> requests;

    RawWatchStream(final ManagedChannel channel, final boolean reading)
    {
        this.reading = reading;
        WatchGrpc.newStub(channel).watch(this);
    }

    @Override
    public void beforeStart(final ClientCallStreamObserver<WatchRequest> requestStream)
    {
        requests = requestStream;
        if (!reading)
        {
            requestStream.disableAutoRequestWithInitial(1);
        }
    }

    void create(final WatchCreateRequest.Builder create)
    {
        requests.onNext(WatchRequest.newBuilder().setCreateRequest(create).build());
    }

    void create(final String key, final String rangeEnd, final long watchId)
    {
        create(WatchCreateRequest.newBuilder().setKey(ByteString.copyFromUtf8(key))
            .setRangeEnd(ByteString.copyFromUtf8(rangeEnd)).setWatchId(watchId));
    }

    void cancel(final long watchId)
    {
        requests.onNext(WatchRequest.newBuilder().setCancelRequest(WatchCancelRequest.newBuilder().setWatchId(watchId)).build());
    }

    void requestProgress()
    {
        requests.onNext(WatchRequest.newBuilder().setProgressRequest(WatchProgressRequest.getDefaultInstance()).build());
    }

    /**
     * Ends the client's side of the stream (no more requests); the server's side stays open.
     */
    void halfClose()
    {
        requests.onCompleted();
    }

    /**
     * Lets a stream that was not reading read everything from now on.
     */
    void startReading()
    {
        requests.request(Integer.MAX_VALUE);
    }

    WatchResponse next() throws InterruptedException
    {
        final WatchResponse response = responses.poll(WAIT_SECONDS, TimeUnit.SECONDS);
        assertNotNull(response, "no response within " + WAIT_SECONDS + " s");
        return response;
    }

    @Override
    public void onNext(final WatchResponse value)
    {
        responses.add(value);
    }

    @Override
    public void onError(final Throwable t)
    {
    }

    @Override
    public void onCompleted()
    {
    }

    /**
     * Cancels the call, as etcd's clients end a watch stream (a half-close leaves etcd's side open).
     */
    @Override
    public void close()
    {
        requests.cancel("the test closed the stream", null);
    }
}
