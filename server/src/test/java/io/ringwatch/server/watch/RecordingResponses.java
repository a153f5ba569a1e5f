package io.ringwatch.server.watch;

import io.grpc.stub.ServerCallStreamObserver;
import io.ringwatch.server.api.etcdserverpb.WatchResponse;

import java.util.ArrayList;
import java.util.List;

/**
 * A watch stream's outbound side for tests that drive a {@link WatchStream} without gRPC: records
 * every response (under its own lock: the pump's thread sends while the test reads) and is ready
 * as the test sets it. Handlers, compression and flow control are ignored.
 */
final class RecordingResponses extends ServerCallStreamObserver<WatchResponse>
{
    final List<WatchResponse> responses = new ArrayList<>();
    volatile boolean ready;

    RecordingResponses(final boolean ready)
    {
        this.ready = ready;
    }

    @Override
    public boolean isCancelled()
    {
        return false;
    }

    @Override
    public void setOnCancelHandler(final Runnable onCancelHandler)
    {
    }

    @Override
    public void setCompression(final String compression)
    {
    }

    @Override
    public boolean isReady()
    {
        return ready;
    }

    @Override
    public void setOnReadyHandler(final Runnable onReadyHandler)
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

    @Override
    public synchronized void onNext(final WatchResponse value)
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
}
