package io.ringwatch.server;

import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.handler.ssl.ClientAuth;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContext;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContextBuilder;
import io.grpc.util.MutableHandlerRegistry;
import io.ringwatch.engine.RingWatch;
import io.ringwatch.server.admission.AdmissionMarks;
import io.ringwatch.server.admission.WriteAdmission;
import io.ringwatch.server.admission.WriteGate;
import io.ringwatch.server.cluster.ClusterService;
import io.ringwatch.server.cluster.MaintenanceService;
import io.ringwatch.server.kv.EtcdLimits;
import io.ringwatch.server.kv.DeepTxns;
import io.ringwatch.server.kv.KvService;
import io.ringwatch.server.kv.RequestLimits;
import io.ringwatch.server.lease.LeaseService;
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
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * An engine behind etcd's v3 gRPC API (KV, Watch, Lease, Maintenance.Status, Cluster.MemberList), so
 * etcd clients such as jetcd and etcdctl use it unchanged. Embedding: {@link #start} it over an
 * engine you opened, {@link #close()} it before closing the engine (the server never closes the
 * engine). Thread-safe.
 */
public final class RingWatchServer implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(RingWatchServer.class);
    private static final long SHUTDOWN_GRACE_SECONDS = 5;

    private final Server server;
    private final NonBlockingCalls calls;
    private final WatchService watch;
    private final LeaseService lease;
    private final MemberIdentity member;
    private final WriteGate gate;

    private RingWatchServer(final Server server, final NonBlockingCalls calls, final Registered served)
    {
        this.server = server;
        this.calls = calls;
        this.watch = served.watch;
        this.lease = served.lease;
        this.member = served.member;
        this.gate = served.gate;
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
        // A URL advertised with port 0 names the port bound, known only once started: the services,
        // whose headers carry the member (ids hashed from those URLs), are then registered after start.
        // Nobody can call a server on port 0 before start returns its port.
        final boolean advertisesChosenPort = options.advertiseClientUrls().stream().anyMatch(url -> url.getPort() == 0);
        final MutableHandlerRegistry services = new MutableHandlerRegistry();
        // Every call starts on the transport's thread; those that may block move to calls' pool.
        final NonBlockingCalls calls = new NonBlockingCalls(options.name());
        // etcd clients ping idle connections (etcdctl every 2 s by default); etcd permits it.
        // etcd's gRPC takes a message up to --max-request-bytes plus its overhead allowance; a larger
        // one is RESOURCE_EXHAUSTED before any service sees it.
        final Server server = builder.maxInboundMessageSize(options.maxRequestBytes() + EtcdLimits.GRPC_OVERHEAD_BYTES)
            .permitKeepAliveWithoutCalls(true)
            .permitKeepAliveTime(1, TimeUnit.SECONDS)
            .directExecutor()
            .callExecutor(calls)
            .fallbackHandlerRegistry(services)
            .build();
        final Registered early = advertisesChosenPort ? null : register(services, engine, options, options.advertiseClientUrls());
        try
        {
            server.start();
        }
        catch (final IOException e)
        {
            if (early != null)
            {
                early.watch.close();
            }
            calls.close();
            throw new UncheckedIOException("cannot listen on " + urls + ": " + e.getMessage(), e);
        }
        final List<InetSocketAddress> bound = listenAddresses(server);
        final Registered served = advertisesChosenPort ?
            register(services, engine, options, boundPorts(options.advertiseClientUrls(), bound)) : early;
        final RingWatchServer started = new RingWatchServer(server, calls, served);
        LOG.info("{}: serving etcd v3 clients on {} ({}; advertised as {}), member id {}, cluster id {}",
            options.name(), bound,
            options.tls() ? (options.clientCertAuth() ? "TLS, client certificates required" : "TLS") : "plaintext",
            started.member.clientUrls(), Long.toHexString(started.member.memberId()), Long.toHexString(started.member.clusterId()));
        return started;
    }

    /**
     * The member the services answer as, the watch and lease services whose streams the server
     * ends when it closes, and the write gate (null without admission).
     */
    private record Registered(MemberIdentity member, WatchService watch, LeaseService lease, WriteGate gate)
    {
    }

    private static Registered register(final MutableHandlerRegistry services, final RingWatch engine, final ServerOptions options,
        final List<URI> advertised)
    {
        final MemberIdentity member = new MemberIdentity(options.name(), advertised.stream().map(URI::toString).collect(Collectors.toList()));
        final WriteGate gate = options.writeAdmission(engine) ? new WriteGate(engine::currentRevision, WriteGate.DEFAULT_MAX_HELD) : null;
        final WriteAdmission admission = gate == null ? null :
            new WriteAdmission(AdmissionMarks.defaults(), WriteAdmission.DEFAULT_STALL_NANOS, gate);
        final WatchService watch = new WatchService(engine, member, options.name(), admission,
            options.maxRequestBytes() + EtcdLimits.GRPC_OVERHEAD_BYTES, options.watchPumps());
        final KvService kv = new KvService(engine, member,
            new RequestLimits(options.maxRequestBytes(), options.maxTxnOps(), member.memberId()));
        final ServerServiceDefinition kvService = DeepTxns.parseDeep(kv.bindService(), options.maxTxnOps());
        services.addService(gate == null ? kvService : ServerInterceptors.intercept(kvService, gate));
        services.addService(watch);
        services.addService(new MaintenanceService(engine, member));
        services.addService(new ClusterService(engine, member));
        final LeaseService lease = new LeaseService(engine, member);
        services.addService(lease);
        return new Registered(member, watch, lease, gate);
    }

    /**
     * @return the advertised URLs, each with port 0 replaced by the port bound for the listen URL at
     *         its position (the first listen URL's past the last), as a client must be told.
     */
    static List<URI> boundPorts(final List<URI> advertised, final List<InetSocketAddress> bound)
    {
        final List<URI> urls = new ArrayList<>(advertised.size());
        for (int i = 0; i < advertised.size(); i++)
        {
            final URI url = advertised.get(i);
            final int port = bound.get(i < bound.size() ? i : 0).getPort();
            try
            {
                urls.add(url.getPort() != 0 ? url :
                    new URI(url.getScheme(), url.getUserInfo(), url.getHost(), port, url.getPath(), url.getQuery(), url.getFragment()));
            }
            catch (final URISyntaxException e)
            {
                throw new IllegalStateException("cannot rewrite " + url + " with port " + port, e);
            }
        }
        return urls;
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
        return listenAddresses(server);
    }

    private static List<InetSocketAddress> listenAddresses(final Server server)
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
     * @return the gate that holds writes while reading watchers are far behind, or null when the
     * server was started without write admission.
     */
    public WriteGate writeGate()
    {
        return gate;
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
     * Stops serving: refuses new calls, ends every watch and keep-alive stream (clients get
     * UNAVAILABLE "etcdserver: server stopped"), lets
     * calls in progress finish for up to 5 s, then cuts the rest. Writes the engine acknowledged
     * stay acknowledged: closing the engine afterwards is what makes them durable in ASYNC mode.
     */
    @Override
    public void close()
    {
        server.shutdown();
        watch.close();
        lease.close();
        if (gate != null)
        {
            // Held writes are let through to finish within the grace period, as any call in progress.
            gate.close();
        }
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
        calls.close();
        LOG.info("{}: stopped serving", member.name());
    }
}
