package io.ringwatch.server.lease;

import com.google.protobuf.ByteString;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.errors.LeaseNotFoundException;
import io.ringwatch.engine.lease.LeaseTimeToLive;
import io.ringwatch.engine.lease.Leases;
import io.ringwatch.server.api.etcdserverpb.LeaseGrantRequest;
import io.ringwatch.server.api.etcdserverpb.LeaseGrantResponse;
import io.ringwatch.server.api.etcdserverpb.LeaseGrpc;
import io.ringwatch.server.api.etcdserverpb.LeaseKeepAliveRequest;
import io.ringwatch.server.api.etcdserverpb.LeaseKeepAliveResponse;
import io.ringwatch.server.api.etcdserverpb.LeaseLeasesRequest;
import io.ringwatch.server.api.etcdserverpb.LeaseLeasesResponse;
import io.ringwatch.server.api.etcdserverpb.LeaseRevokeRequest;
import io.ringwatch.server.api.etcdserverpb.LeaseRevokeResponse;
import io.ringwatch.server.api.etcdserverpb.LeaseStatus;
import io.ringwatch.server.api.etcdserverpb.LeaseTimeToLiveRequest;
import io.ringwatch.server.api.etcdserverpb.LeaseTimeToLiveResponse;
import io.ringwatch.server.rpc.MemberIdentity;
import io.ringwatch.server.rpc.Unary;

import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;

/**
 * etcd's Lease service over the engine's {@link Leases}: LeaseGrant (ID 0: the engine chooses),
 * LeaseRevoke (the lease's keys deleted in one revision), the LeaseKeepAlive stream
 * ({@link KeepAliveStream}), LeaseTimeToLive (with the keys when asked) and LeaseLeases, with
 * etcd's answers where it answers without an error: TTL -1 from LeaseTimeToLive and TTL 0 from a
 * keep-alive for a lease that is unknown or has expired. Errors carry etcd's codes and messages
 * ("etcdserver: requested lease not found", "etcdserver: lease already exists", "etcdserver: too
 * large lease TTL"). No call waits for the engine's writer on gRPC's executor: each unary call is
 * answered when the engine's future completes (on the thread that completes writes, so the
 * continuations only build the response), and keep-alive renewals do not wait either.
 * Thread-safe; allocates per call.
 */
public final class LeaseService extends LeaseGrpc.LeaseImplBase implements AutoCloseable
{
    private final RingWatch engine;
    private final MemberIdentity member;
    /** The keep-alive streams open, to end when the server stops. */
    private final Set<KeepAliveStream> keepAlives = ConcurrentHashMap.newKeySet();

    /**
     * @param engine the engine whose leases to serve.
     * @param member fills the response headers.
     */
    public LeaseService(final RingWatch engine, final MemberIdentity member)
    {
        this.engine = Objects.requireNonNull(engine, "engine");
        this.member = Objects.requireNonNull(member, "member");
    }

    /**
     * etcd's LeaseGrant: a TTL below the engine's minimum is raised to it.
     *
     * @param request  the TTL, and the id (0: the engine chooses).
     * @param response receives the id and the TTL granted.
     */
    @Override
    public void leaseGrant(final LeaseGrantRequest request, final StreamObserver<LeaseGrantResponse> response)
    {
        Unary.answerLater(response, () -> engine.leases().grantAsync(request.getID(), request.getTTL()).thenApply(grant ->
            LeaseGrantResponse.newBuilder().setHeader(member.header(engine.currentRevision()))
                .setID(grant.id()).setTTL(grant.ttlSeconds()).build()));
    }

    /**
     * etcd's LeaseRevoke: the lease's keys are deleted in one revision.
     *
     * @param request  the lease.
     * @param response receives the header, at the revision of the deletes.
     */
    @Override
    public void leaseRevoke(final LeaseRevokeRequest request, final StreamObserver<LeaseRevokeResponse> response)
    {
        Unary.answerLater(response, () -> engine.leases().revokeAsync(request.getID()).thenApply(revision ->
            LeaseRevokeResponse.newBuilder().setHeader(member.header(revision)).build()));
    }

    /**
     * etcd's LeaseKeepAlive stream.
     *
     * @param responses the stream's outbound side.
     * @return the stream's inbound side.
     */
    @Override
    public StreamObserver<LeaseKeepAliveRequest> leaseKeepAlive(final StreamObserver<LeaseKeepAliveResponse> responses)
    {
        final KeepAliveStream stream = new KeepAliveStream(engine, member,
            (ServerCallStreamObserver<LeaseKeepAliveResponse>)responses, keepAlives::remove);
        keepAlives.add(stream);
        return stream;
    }

    /**
     * etcd's LeaseTimeToLive: TTL -1 for a lease that is unknown or has expired, as etcd answers.
     *
     * @param request  the lease, and whether to list its keys.
     * @param response receives the time left, the granted TTL and the keys.
     */
    @Override
    public void leaseTimeToLive(final LeaseTimeToLiveRequest request, final StreamObserver<LeaseTimeToLiveResponse> response)
    {
        Unary.answerLater(response, () -> engine.leases().timeToLiveAsync(request.getID(), request.getKeys()).handle((left, error) ->
        {
            final LeaseTimeToLiveResponse.Builder answer = LeaseTimeToLiveResponse.newBuilder().setID(request.getID());
            if (error == null)
            {
                answer.setTTL(left.ttlSeconds()).setGrantedTTL(left.grantedTtlSeconds());
                for (final byte[] key : left.keys())
                {
                    answer.addKeys(ByteString.copyFrom(key));
                }
            }
            else if (unwrap(error) instanceof LeaseNotFoundException)
            {
                answer.setTTL(-1);
            }
            else
            {
                throw error instanceof CompletionException ? (CompletionException)error : new CompletionException(error);
            }
            return answer.setHeader(member.header(engine.currentRevision())).build();
        }));
    }

    /**
     * etcd's LeaseLeases.
     *
     * @param request  empty.
     * @param response receives the live leases' ids, ascending.
     */
    @Override
    public void leaseLeases(final LeaseLeasesRequest request, final StreamObserver<LeaseLeasesResponse> response)
    {
        Unary.answerLater(response, () -> engine.leases().leasesAsync().thenApply(ids ->
        {
            final LeaseLeasesResponse.Builder answer = LeaseLeasesResponse.newBuilder();
            for (final long id : ids)
            {
                answer.addLeases(LeaseStatus.newBuilder().setID(id));
            }
            return answer.setHeader(member.header(engine.currentRevision())).build();
        }));
    }

    private static Throwable unwrap(final Throwable error)
    {
        return error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    }

    /**
     * Ends every keep-alive stream still open with etcd's UNAVAILABLE "etcdserver: server stopped",
     * as a stopping server ends its watch streams. Any thread; call after the server stopped taking
     * new calls.
     */
    @Override
    public void close()
    {
        for (final KeepAliveStream stream : keepAlives)
        {
            stream.shutdown();
        }
    }
}
