package io.ringwatch.server;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.RingWatchConfig;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * An in-memory engine behind a server on a free loopback port, with a jetcd client and a raw
 * gRPC channel (for what jetcd does not send: client-chosen watch ids, lease compares, flow
 * control). One per test class; tests use their own key prefixes.
 */
final class ServerFixture implements AutoCloseable
{
    final RingWatch engine;
    final RingWatchServer server;
    final Client client;
    final ManagedChannel channel;

    ServerFixture()
    {
        this(RingWatchConfig.builder().name("server-test").progressNotifyInterval(Duration.ofMillis(100)).build());
    }

    ServerFixture(final RingWatchConfig config)
    {
        engine = RingWatch.open(config);
        server = RingWatchServer.start(engine, ServerOptions.builder()
            .name("test-member")
            .listenClientUrl(URI.create("http://127.0.0.1:0"))
            .build());
        client = Client.builder().endpoints("http://127.0.0.1:" + server.port()).build();
        channel = NettyChannelBuilder.forAddress("127.0.0.1", server.port()).usePlaintext().build();
    }

    static ByteSequence bytes(final String text)
    {
        return ByteSequence.from(text, StandardCharsets.UTF_8);
    }

    static String text(final ByteSequence bytes)
    {
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws InterruptedException
    {
        client.close();
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        server.close();
        engine.close();
    }
}
