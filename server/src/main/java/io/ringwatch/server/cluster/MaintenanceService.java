package io.ringwatch.server.cluster;

import io.ringwatch.server.api.etcdserverpb.AlarmRequest;
import io.ringwatch.server.api.etcdserverpb.AlarmResponse;
import io.ringwatch.server.api.etcdserverpb.AlarmType;
import io.ringwatch.server.api.etcdserverpb.MaintenanceGrpc;
import io.ringwatch.server.api.etcdserverpb.StatusRequest;
import io.ringwatch.server.api.etcdserverpb.StatusResponse;
import io.grpc.stub.StreamObserver;
import io.ringwatch.engine.RingWatch;
import io.ringwatch.server.rpc.EtcdErrors;
import io.ringwatch.server.rpc.MemberIdentity;
import io.ringwatch.server.rpc.Unary;

import java.util.Objects;

/**
 * etcd's Maintenance service, Status (what {@code etcdctl endpoint status} asks: the one member
 * leads, its raft index is the store revision) and Alarm (no alarm is ever raised: etcdctl 3.5's
 * {@code endpoint health}, and the operators written like it, list the alarms after their health
 * read and call an endpoint whose list fails unhealthy). The other Maintenance calls answer
 * UNIMPLEMENTED. Thread-safe; allocates per call.
 */
public final class MaintenanceService extends MaintenanceGrpc.MaintenanceImplBase
{
    /**
     * The etcd version whose API this server speaks, reported by Status: 3.5's (RequestProgress answers
     * for every watch of the stream, nested transactions, fragments), at 3.5.22, whose watch progress
     * it follows: past the fixes of 3.5.13 that Kubernetes requires before it trusts progress
     * notifications for consistent reads from its watch cache, and with none below a watch's start
     * revision (etcd-io/etcd#20229). etcdctl 3.4 only prints it.
     */
    public static final String ETCD_API_VERSION = "3.5.22";

    private final RingWatch engine;
    private final MemberIdentity member;

    /**
     * @param engine the engine served.
     * @param member the member that answers.
     */
    public MaintenanceService(final RingWatch engine, final MemberIdentity member)
    {
        this.engine = Objects.requireNonNull(engine, "engine");
        this.member = Objects.requireNonNull(member, "member");
    }

    /**
     * @param request  etcd's status request.
     * @param response receives the member's status; db sizes are 0 (the engine keeps no bolt file).
     */
    @Override
    public void status(final StatusRequest request, final StreamObserver<StatusResponse> response)
    {
        Unary.answer(response, () ->
        {
            final long revision = engine.currentRevision();
            return StatusResponse.newBuilder()
                .setHeader(member.header(revision))
                .setVersion(ETCD_API_VERSION)
                .setLeader(member.memberId())
                .setRaftIndex(revision)
                .setRaftAppliedIndex(revision)
                .setRaftTerm(MemberIdentity.RAFT_TERM)
                .build();
        });
    }

    /**
     * etcd's Alarm: GET lists the raised alarms, none here (the engine has no space quota and no
     * corruption check to raise one); DEACTIVATE of an alarm not raised and ACTIVATE of NONE change
     * nothing and answer no alarm, as etcd's apply does; raising a real alarm answers UNIMPLEMENTED.
     *
     * @param request  the alarm request.
     * @param response receives the header and no alarm.
     */
    @Override
    public void alarm(final AlarmRequest request, final StreamObserver<AlarmResponse> response)
    {
        Unary.answer(response, () ->
        {
            if (request.getAction() == AlarmRequest.AlarmAction.ACTIVATE && request.getAlarm() != AlarmType.NONE)
            {
                throw EtcdErrors.unsupported("raising an alarm");
            }
            return AlarmResponse.newBuilder().setHeader(member.header(engine.currentRevision())).build();
        });
    }
}
