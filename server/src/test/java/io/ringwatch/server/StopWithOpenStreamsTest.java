package io.ringwatch.server;

import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.server.api.etcdserverpb.LeaseGrantRequest;
import io.ringwatch.server.api.etcdserverpb.LeaseGrpc;
import io.ringwatch.server.api.etcdserverpb.LeaseKeepAliveResponse;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A server that stops (SIGTERM, {@link RingWatchServer#close}) ends the LeaseKeepAlive streams
 * still open as it ends the watch streams: at once, with etcd's UNAVAILABLE "etcdserver: server
 * stopped", which clients retry elsewhere; not by holding the stop for the grace period and then
 * cutting the call. Waits are liveness bounds only.
 */
class StopWithOpenStreamsTest
{
    private static final long WAIT_SECONDS = 30;

    @Test
    void anOpenKeepAliveStreamEndsAsUnavailableServerStopped() throws Exception
    {
        try (RingWatch engine = RingWatch.open(RingWatchConfig.builder().name("stop-streams").build()))
        {
            final RingWatchServer server = RingWatchServer.start(engine, ServerOptions.builder().name("stop-streams")
                .listenClientUrl(URI.create("http://127.0.0.1:0")).build());
            final ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", server.port()).usePlaintext().build();
            try
            {
                final long lease = LeaseGrpc.newBlockingStub(channel).leaseGrant(LeaseGrantRequest.newBuilder().setTTL(60).build()).getID();
                final RawKeepAlive keepAlive = new RawKeepAlive(channel);
                keepAlive.call.request(1);
                keepAlive.send(lease);
                final LeaseKeepAliveResponse renewed = keepAlive.answers.poll(WAIT_SECONDS, TimeUnit.SECONDS);
                assertNotNull(renewed, "the renewal answered");
                assertEquals(60, renewed.getTTL());
                server.close();
                assertTrue(keepAlive.closed.await(WAIT_SECONDS, TimeUnit.SECONDS), "the keep-alive stream ended");
                final Status status = keepAlive.status.get();
                assertEquals(Status.Code.UNAVAILABLE, status.getCode(), "ended with " + status);
                assertEquals("etcdserver: server stopped", status.getDescription(), "ended by the server, not cut: " + status);
            }
            finally
            {
                server.close();
                channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
            }
        }
    }
}
