package io.ringwatch.server;

import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.handler.ssl.ClientAuth;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContext;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContextBuilder;
import io.ringwatch.engine.RingWatch;
import io.ringwatch.server.cluster.ClusterService;
import io.ringwatch.server.cluster.MaintenanceService;
import io.ringwatch.server.kv.KvService;
import io.ringwatch.server.rpc.MemberIdentity;
import io.ringwatch.server.rpc.NonBlockingCalls;
import io.ringwatch.server.watch.WatchService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * An engine behind etcd's v3 gRPC API (KV, Watch, Maintenance.Status, Cluster.MemberList), so
 * etcd clients such as jetcd and etcdctl use it unchanged. Embedding: {@link #start} it over an
 * engine you opened, {@link #close()} it before closing the engine (the server never closes the
 * engine). Thread-safe.
 */
public final class RingWatchServer implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(RingWatchServer.class);
    private static final long SHUTDOWN_GRACE_SECONDS = 5;

    private final Server server;
    private final WatchService watch;
    private final MemberIdentity member;

    private RingWatchServer(final Server server, final WatchService watch, final MemberIdentity member)
    {
        this.server = server;
        this.watch = watch;
        this.member = member;
    }

    /**
     * Starts serving {@code engine} on the options' listen URLs and logs where it listens.
     *
     * @param engine  the engine; it stays the caller's to close, after this server.
     * @param options name and URLs.
     * @return the running server.
     * @throws UncheckedIOException if a listen address cannot be bound or a TLS file read.
     */
    public static RingWatchServer start(final RingWatch engine, final ServerOptions options)
    {
        Objects.requireNonNull(engine, "engine");
        Objects.requireNonNull(options, "options");
        final MemberIdentity member = new MemberIdentity(options.name(),
            options.advertiseClientUrls().stream().map(URI::toString).collect(Collectors.toList()));
        final List<URI> urls = options.listenClientUrls();
        final NettyServerBuilder builder = NettyServerBuilder.forAddress(ServerOptions.address(urls.get(0)));
        for (final URI url : urls.subList(1, urls.size()))
        {
            builder.addListenAddress(ServerOptions.address(url));
        }
        if (options.tls())
        {
            builder.sslContext(sslContext(options));
        }
        final WatchService watch = new WatchService(engine, member, options.name());
        // etcd clients ping idle connections (etcdctl every 2 s by default); etcd permits it.
        builder.permitKeepAliveWithoutCalls(true)
            .permitKeepAliveTime(1, TimeUnit.SECONDS)
            .callExecutor(new NonBlockingCalls())
            .addService(new KvService(engine, member))
            .addService(watch)
            .addService(new MaintenanceService(engine, member))
            .addService(new ClusterService(engine, member));
        final Server server = builder.build();
        try
        {
            server.start();
        }
        catch (final IOException e)
        {
            watch.close();
            throw new UncheckedIOException("cannot listen on " + urls + ": " + e.getMessage(), e);
        }
        final RingWatchServer started = new RingWatchServer(server, watch, member);
        LOG.info("{}: serving etcd v3 clients on {} ({}; advertised as {}), member id {}, cluster id {}",
            options.name(), started.listenAddresses(),
            options.tls() ? (options.clientCertAuth() ? "TLS, client certificates required" : "TLS") : "plaintext", member.clientUrls(),
            Long.toHexString(member.memberId()), Long.toHexString(member.clusterId()));
        return started;
    }

    private static SslContext sslContext(final ServerOptions options)
    {
        try
        {
            final SslContextBuilder ssl = GrpcSslContexts.configure(
                SslContextBuilder.forServer(options.certFile().toFile(), options.keyFile().toFile()));
            if (options.trustedCaFile() != null)
            {
                ssl.trustManager(options.trustedCaFile().toFile());
            }
            return ssl.clientAuth(options.clientCertAuth() ? ClientAuth.REQUIRE : ClientAuth.NONE).build();
        }
        catch (final IOException | IllegalArgumentException e)
        {
            throw new UncheckedIOException("cannot set up TLS from " + options.certFile() + " and " + options.keyFile() + ": " +
                e.getMessage(), e instanceof IOException ? (IOException)e : new IOException(e));
        }
    }

    /**
     * @return the addresses bound (with the ports chosen for port 0).
     */
    public List<InetSocketAddress> listenAddresses()
    {
        final List<InetSocketAddress> addresses = new ArrayList<>();
        for (final SocketAddress address : server.getListenSockets())
        {
            addresses.add((InetSocketAddress)address);
        }
        return addresses;
    }

    /**
     * @return the port of the first address bound.
     */
    public int port()
    {
        return listenAddresses().get(0).getPort();
    }

    /**
     * @return the member this server is.
     */
    public MemberIdentity member()
    {
        return member;
    }

    /**
     * Blocks until the server has stopped.
     *
     * @throws InterruptedException if interrupted while waiting.
     */
    public void awaitTermination() throws InterruptedException
    {
        server.awaitTermination();
    }

    /**
     * Stops serving: refuses new calls, ends every watch stream (clients get UNAVAILABLE), lets
     * calls in progress finish for up to 5 s, then cuts the rest. Writes the engine acknowledged
     * stay acknowledged: closing the engine afterwards is what makes them durable in ASYNC mode.
     */
    @Override
    public void close()
    {
        server.shutdown();
        watch.close();
        try
        {
            if (!server.awaitTermination(SHUTDOWN_GRACE_SECONDS, TimeUnit.SECONDS))
            {
                server.shutdownNow().awaitTermination(SHUTDOWN_GRACE_SECONDS, TimeUnit.SECONDS);
            }
        }
        catch (final InterruptedException e)
        {
            server.shutdownNow();
            Thread.currentThread().interrupt();
        }
        LOG.info("{}: stopped serving", member.name());
    }
}
