package io.ringwatch.server.cluster;

import io.ringwatch.server.api.etcdserverpb.ClusterGrpc;
import io.ringwatch.server.api.etcdserverpb.MemberListRequest;
import io.ringwatch.server.api.etcdserverpb.MemberListResponse;
import io.grpc.stub.StreamObserver;
import io.ringwatch.engine.RingWatch;
import io.ringwatch.server.rpc.MemberIdentity;
import io.ringwatch.server.rpc.Unary;

import java.util.Objects;

/**
 * etcd's Cluster service, MemberList only (what {@code etcdctl member list} asks): one member.
 * Adding, removing, updating and promoting members answer UNIMPLEMENTED. Thread-safe; allocates
 * per call.
 */
public final class ClusterService extends ClusterGrpc.ClusterImplBase
{
    private final RingWatch engine;
    private final MemberIdentity member;

    /**
     * @param engine the engine served (for the header revision).
     * @param member the one member.
     */
    public ClusterService(final RingWatch engine, final MemberIdentity member)
    {
        this.engine = Objects.requireNonNull(engine, "engine");
        this.member = Objects.requireNonNull(member, "member");
    }

    /**
     * @param request  etcd's member list request.
     * @param response receives the one member.
     */
    @Override
    public void memberList(final MemberListRequest request, final StreamObserver<MemberListResponse> response)
    {
        Unary.answer(response, () -> MemberListResponse.newBuilder()
            .setHeader(member.header(engine.currentRevision()))
            .addMembers(member.member())
            .build());
    }
}
