package io.ringwatch.server;

import io.etcd.jetcd.cluster.Member;
import io.etcd.jetcd.maintenance.StatusResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URI;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Maintenance.Status, Maintenance.Alarm and Cluster.MemberList as a single-member etcd answers them, and the
 * options' checks.
 */
class MaintenanceAndClusterTest
{
    @RegisterExtension
    static final ServerFixture fixture = new ServerFixture();

    @Test
    void statusNamesTheMemberAsLeaderAtTheCurrentRevision() throws Exception
    {
        fixture.engine.put("status/a", "1");
        final StatusResponse status = fixture.client.getMaintenanceClient()
            .statusMember("http://127.0.0.1:" + fixture.server.port()).get();
        assertEquals(fixture.server.member().memberId(), status.getLeader());
        assertEquals(fixture.engine.currentRevision(), status.getRaftIndex());
        assertEquals(fixture.engine.currentRevision(), status.getHeader().getRevision());
        assertEquals("3.5.22", status.getVersion(), "etcd 3.5's API, with the watch progress of 3.5.22");
    }

    @Test
    void alarmListHoldsNoAlarmSoEtcdctlCallsTheEndpointHealthy() throws Exception
    {
        // etcdctl 3.5's endpoint health lists the alarms after its read; a failing list is "unhealthy".
        assertEquals(0, fixture.client.getMaintenanceClient().listAlarms().get().getAlarms().size());
        final io.ringwatch.server.api.etcdserverpb.AlarmResponse disarmed =
            io.ringwatch.server.api.etcdserverpb.MaintenanceGrpc.newBlockingStub(fixture.channel).alarm(
                io.ringwatch.server.api.etcdserverpb.AlarmRequest.newBuilder()
                    .setAction(io.ringwatch.server.api.etcdserverpb.AlarmRequest.AlarmAction.DEACTIVATE)
                    .setAlarm(io.ringwatch.server.api.etcdserverpb.AlarmType.NOSPACE).build());
        assertEquals(0, disarmed.getAlarmsCount());
        assertEquals(fixture.server.member().memberId(), disarmed.getHeader().getMemberId());
    }

    @Test
    void memberListHoldsTheOneMemberAdvertisingThePortItBoundForPortZero() throws Exception
    {
        final List<Member> members = fixture.client.getClusterClient().listMember().get().getMembers();
        assertEquals(1, members.size());
        assertEquals("test-member", members.get(0).getName());
        assertEquals(fixture.server.member().memberId(), members.get(0).getId());
        assertNotEquals(0, fixture.server.port());
        assertEquals(List.of(URI.create("http://127.0.0.1:" + fixture.server.port())), members.get(0).getClientURIs());
    }

    @Test
    void anAdvertisedUrlWithAPortIsKeptAndOneWithPortZeroTakesTheBoundPort()
    {
        final RingWatchServer server = RingWatchServer.start(fixture.engine, ServerOptions.builder().name("advertised")
            .listenClientUrl(URI.create("http://127.0.0.1:0"))
            .advertiseClientUrl(URI.create("http://etcd.example:2379"))
            .advertiseClientUrl(URI.create("http://localhost:0/path"))
            .build());
        try
        {
            assertEquals(List.of("http://etcd.example:2379", "http://localhost:" + server.port() + "/path"),
                server.member().clientUrls());
        }
        finally
        {
            server.close();
        }
    }

    @Test
    void idsAreStableForTheSameNameAndUrlsAndDifferForOthers()
    {
        final ServerOptions same = ServerOptions.builder().name("test-member").listenClientUrl(URI.create("http://127.0.0.1:0")).build();
        final RingWatchServer other = RingWatchServer.start(fixture.engine, ServerOptions.builder().name("other")
            .listenClientUrl(URI.create("http://127.0.0.1:0")).build());
        try
        {
            assertEquals(same.name(), fixture.server.member().name());
            assertNotEquals(fixture.server.member().memberId(), other.member().memberId());
            assertNotEquals(fixture.server.member().clusterId(), other.member().clusterId());
        }
        finally
        {
            other.close();
        }
    }

    @Test
    void onlyHttpOrHttpsUrlsWithAPortAreAccepted()
    {
        assertThrows(IllegalArgumentException.class, () -> ServerOptions.builder().listenClientUrl(URI.create("https://127.0.0.1:2379")).build(),
            "https without a certificate");
        assertThrows(IllegalArgumentException.class, () -> ServerOptions.builder().listenClientUrl(URI.create("ftp://127.0.0.1:2379")));
        assertThrows(IllegalArgumentException.class, () -> ServerOptions.builder().listenClientUrl(URI.create("http://127.0.0.1")));
        assertEquals(List.of(URI.create(ServerOptions.DEFAULT_CLIENT_URL)), ServerOptions.builder().build().listenClientUrls());
    }
}
