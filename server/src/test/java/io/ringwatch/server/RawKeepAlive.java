package io.ringwatch.server;

import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.ringwatch.server.api.etcdserverpb.LeaseGrpc;
import io.ringwatch.server.api.etcdserverpb.LeaseKeepAliveRequest;
import io.ringwatch.server.api.etcdserverpb.LeaseKeepAliveResponse;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A raw LeaseKeepAlive call, for what a stub hides: its flow control (it asks for no answer until
 * the test calls {@code call.request}), readiness, and how it ended. Queues its answers; its
 * listener runs on gRPC's threads.
 */
final class RawKeepAlive extends ClientCall.Listener<LeaseKeepAliveResponse>
{
    final BlockingQueue<LeaseKeepAliveResponse> answers = new LinkedBlockingQueue<>();
    /** Released at each onReady. */
    final Semaphore ready = new Semaphore(0);
    final CountDownLatch closed = new CountDownLatch(1);
    final AtomicReference<Status> status = new AtomicReference<>();
    final ClientCall<LeaseKeepAliveRequest, LeaseKeepAliveResponse> call;

    /**
     * @param channel the channel to start the call on.
     */
    RawKeepAlive(final ManagedChannel channel)
    {
        call = channel.newCall(LeaseGrpc.getLeaseKeepAliveMethod(), CallOptions.DEFAULT);
        call.start(this, new Metadata());
    }

    /**
     * @param lease the lease to renew.
     */
    void send(final long lease)
    {
        call.sendMessage(LeaseKeepAliveRequest.newBuilder().setID(lease).build());
    }

    @Override
    public void onMessage(final LeaseKeepAliveResponse message)
    {
        answers.add(message);
    }

    @Override
    public void onReady()
    {
        ready.release();
    }

    @Override
    public void onClose(final Status end, final Metadata trailers)
    {
        status.set(end);
        closed.countDown();
    }
}
