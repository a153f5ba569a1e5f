package io.ringwatch.server;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.kv.PutResponse;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * An in-memory engine behind a server on a free loopback port, with a jetcd client and a raw
 * gRPC channel (for what jetcd does not send: client-chosen watch ids, lease compares, flow
 * control). One per test class, registered as an extension
 * ({@code @RegisterExtension static final ServerFixture fixture = new ServerFixture();}: started
 * before the class's tests, closed after them), or started and closed by hand; tests use their own
 * key prefixes.
 */
final class ServerFixture implements BeforeAllCallback, AfterAllCallback, AutoCloseable
{
    private final RingWatchConfig config;
    RingWatch engine;
    RingWatchServer server;
    Client client;
    ManagedChannel channel;
    private final List<ManagedChannel> extraChannels = new ArrayList<>();

    ServerFixture()
    {
        this(RingWatchConfig.builder().name("server-test").progressNotifyInterval(Duration.ofMillis(100)).build());
    }

    ServerFixture(final RingWatchConfig config)
    {
        this.config = config;
    }

    @Override
    public void beforeAll(final ExtensionContext context)
    {
        start();
    }

    @Override
    public void afterAll(final ExtensionContext context) throws InterruptedException
    {
        close();
    }

    ServerFixture start()
    {
        return start(ServerOptions.builder().name("test-member").listenClientUrl(URI.create("http://127.0.0.1:0")));
    }

    /**
     * @param options the server's options, listening on a loopback port.
     * @return this fixture, started.
     */
    ServerFixture start(final ServerOptions.Builder options)
    {
        engine = RingWatch.open(config);
        server = RingWatchServer.start(engine, options.build());
        client = Client.builder().endpoints("http://127.0.0.1:" + server.port()).build();
        channel = NettyChannelBuilder.forAddress("127.0.0.1", server.port()).usePlaintext().build();
        return this;
    }

    static ByteSequence bytes(final String text)
    {
        return ByteSequence.from(text, StandardCharsets.UTF_8);
    }

    static String text(final ByteSequence bytes)
    {
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /**
     * @param window the HTTP/2 window, fixed (no auto-tuning), so that a test knows what a client
     *               that does not read holds.
     * @return a raw channel to the server with that window, closed with the fixture.
     */
    ManagedChannel channelWithWindow(final int window)
    {
        final ManagedChannel windowed = NettyChannelBuilder.forAddress("127.0.0.1", server.port()).usePlaintext()
            .flowControlWindow(window).build();
        extraChannels.add(windowed);
        return windowed;
    }

    /**
     * Puts {@code writes} keys through jetcd flat out, with at most {@code inFlight} outstanding.
     *
     * @param writes   how many.
     * @param inFlight the most outstanding at once.
     * @param key      the key of write i.
     * @param value    the value of every write.
     * @return the puts' answers, in the order sent.
     * @throws InterruptedException if interrupted while waiting for room.
     */
    List<CompletableFuture<PutResponse>> putFlatOut(final int writes, final int inFlight, final IntFunction<String> key,
        final ByteSequence value) throws InterruptedException
    {
        final Semaphore room = new Semaphore(inFlight);
        final List<CompletableFuture<PutResponse>> puts = new ArrayList<>(writes);
        for (int i = 0; i < writes; i++)
        {
            room.acquire();
            final CompletableFuture<PutResponse> put = client.getKVClient().put(bytes(key.apply(i)), value);
            put.whenComplete((result, error) -> room.release());
            puts.add(put);
        }
        return puts;
    }

    @Override
    public void close() throws InterruptedException
    {
        for (final ManagedChannel extra : extraChannels)
        {
            extra.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
        client.close();
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        server.close();
        engine.close();
    }
}
