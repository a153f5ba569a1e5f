package io.ringwatch.server.lease;

import io.grpc.stub.StreamObserver;
import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.errors.LeaseNotFoundException;
import io.ringwatch.server.api.etcdserverpb.LeaseKeepAliveRequest;
import io.ringwatch.server.api.etcdserverpb.LeaseKeepAliveResponse;
import io.ringwatch.server.rpc.EtcdErrors;
import io.ringwatch.server.rpc.MemberIdentity;

/**
 * One etcd LeaseKeepAlive stream: each request renews its lease and is answered with the TTL it was
 * renewed to, or TTL 0 when the lease is unknown or has expired (etcd's answer, not an error: the
 * client decides). Any other failure (the engine closed) ends the stream with etcd's error.
 *
 * <p>Threads: gRPC calls {@link #onNext} for one stream one call at a time, on its executor, and
 * each renewal waits there for the engine's writer; the answer goes out on the same thread.
 * Allocates a response per request.
 */
final class KeepAliveStream implements StreamObserver<LeaseKeepAliveRequest>
{
    private final RingWatch engine;
    private final MemberIdentity member;
    private final StreamObserver<LeaseKeepAliveResponse> responses;
    private boolean ended;

    KeepAliveStream(final RingWatch engine, final MemberIdentity member, final StreamObserver<LeaseKeepAliveResponse> responses)
    {
        this.engine = engine;
        this.member = member;
        this.responses = responses;
    }

    @Override
    public void onNext(final LeaseKeepAliveRequest request)
    {
        if (ended)
        {
            return;
        }
        long ttl;
        try
        {
            ttl = engine.leases().keepAlive(request.getID());
        }
        catch (final LeaseNotFoundException e)
        {
            ttl = 0;
        }
        catch (final RuntimeException e)
        {
            ended = true;
            responses.onError(EtcdErrors.fromEngine(e));
            return;
        }
        responses.onNext(LeaseKeepAliveResponse.newBuilder().setHeader(member.header(engine.currentRevision()))
            .setID(request.getID()).setTTL(ttl).build());
    }

    @Override
    public void onError(final Throwable t)
    {
        ended = true;
    }

    @Override
    public void onCompleted()
    {
        if (!ended)
        {
            ended = true;
            responses.onCompleted();
        }
    }
}
