package io.ringwatch.server;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.server.kv.EtcdLimits;

import io.ringwatch.server.watch.WatchService;

import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How a {@link RingWatchServer} presents itself: the member name, the URLs it listens on and
 * advertises, and TLS, as etcd's {@code --name}, {@code --listen-client-urls},
 * {@code --advertise-client-urls}, {@code --cert-file}, {@code --key-file},
 * {@code --trusted-ca-file}, {@code --client-cert-auth}, {@code --max-request-bytes} and
 * {@code --max-txn-ops}, and whether writes wait for reading
 * watchers that fall far behind (write admission, on by default). Listen URLs are all http://
 * (plaintext) or all https:// (TLS, which needs a certificate and its key). Immutable and
 * thread-safe; build it with {@link #builder()}.
 */
public final class ServerOptions
{
    /** etcd's default member name. */
    public static final String DEFAULT_NAME = "default";
    /** etcd's default client URL. */
    public static final String DEFAULT_CLIENT_URL = "http://localhost:2379";
    /** The system property that, when set, is the default number of watch pumps. */
    public static final String WATCH_PUMPS_PROPERTY = "ringwatch.watchPumps";

    private final String name;
    private final List<URI> listenClientUrls;
    private final List<URI> advertiseClientUrls;
    private final Path certFile;
    private final Path keyFile;
    private final Path trustedCaFile;
    private final boolean clientCertAuth;
    /** Null: decided by the engine served (held only in memory). */
    private final Boolean writeAdmission;
    private final int maxRequestBytes;
    private final int maxTxnOps;
    private final int watchPumps;

    private ServerOptions(final Builder builder)
    {
        name = builder.name;
        listenClientUrls = List.copyOf(builder.listenClientUrls.isEmpty() ? List.of(URI.create(DEFAULT_CLIENT_URL)) : builder.listenClientUrls);
        advertiseClientUrls = List.copyOf(builder.advertiseClientUrls.isEmpty() ? listenClientUrls : builder.advertiseClientUrls);
        certFile = builder.certFile;
        keyFile = builder.keyFile;
        trustedCaFile = builder.trustedCaFile;
        clientCertAuth = builder.clientCertAuth;
        writeAdmission = builder.writeAdmission;
        maxRequestBytes = builder.maxRequestBytes;
        maxTxnOps = builder.maxTxnOps;
        watchPumps = builder.watchPumps;
        final long https = listenClientUrls.stream().filter(ServerOptions::isHttps).count();
        if (https != 0 && https != listenClientUrls.size())
        {
            throw new IllegalArgumentException("listen URLs must be all http:// or all https://: " + listenClientUrls);
        }
        if (https > 0 && (certFile == null || keyFile == null))
        {
            throw new IllegalArgumentException("https:// listen URLs need a certificate and its key (--cert-file, --key-file)");
        }
        if (https == 0 && (certFile != null || clientCertAuth))
        {
            throw new IllegalArgumentException("a certificate or client certificate authentication needs https:// listen URLs");
        }
        if (clientCertAuth && trustedCaFile == null)
        {
            throw new IllegalArgumentException("client certificate authentication needs the CA to trust (--trusted-ca-file)");
        }
    }

    /**
     * @return a builder with etcd's defaults: name "default", listening on http://localhost:2379.
     */
    public static Builder builder()
    {
        return new Builder();
    }

    /**
     * @return the member name.
     */
    public String name()
    {
        return name;
    }

    /**
     * @return the URLs to listen on.
     */
    public List<URI> listenClientUrls()
    {
        return listenClientUrls;
    }

    /**
     * @return the URLs clients are told to use (the listen URLs unless set).
     */
    public List<URI> advertiseClientUrls()
    {
        return advertiseClientUrls;
    }

    /**
     * @return true when the server listens with TLS (https:// URLs).
     */
    public boolean tls()
    {
        return isHttps(listenClientUrls.get(0));
    }

    /**
     * @return the server's certificate chain (PEM), or null without TLS.
     */
    public Path certFile()
    {
        return certFile;
    }

    /**
     * @return the certificate's private key (PEM, PKCS#8), or null without TLS.
     */
    public Path keyFile()
    {
        return keyFile;
    }

    /**
     * @return the CA certificates (PEM) that client certificates must chain to, or null.
     */
    public Path trustedCaFile()
    {
        return trustedCaFile;
    }

    /**
     * @return true when every client must present a certificate signed by the trusted CA.
     */
    public boolean clientCertAuth()
    {
        return clientCertAuth;
    }

    /**
     * Whether writes are held while the watches of reading clients are more than half the watch
     * window behind (see {@code io.ringwatch.server.admission}): as set on the builder, else only
     * for an in-memory engine. Its watches have nothing but the window to catch up from and would be
     * cancelled as compacted; a persistent engine's lagging watches catch up from its revision log,
     * as etcd's do from its store, so holding its writes would only cost puts.
     *
     * @param engine the engine served.
     * @return true when the server holds writes for its reading watches.
     */
    public boolean writeAdmission(final RingWatch engine)
    {
        return writeAdmission != null ? writeAdmission : engine.stats().journalAppends() == null;
    }

    /**
     * @return etcd's --max-request-bytes.
     */
    public int maxRequestBytes()
    {
        return maxRequestBytes;
    }

    /**
     * @return etcd's --max-txn-ops.
     */
    public int maxTxnOps()
    {
        return maxTxnOps;
    }

    /**
     * @return how many watch pump threads serve the watch streams (each stream on one of them).
     */
    public int watchPumps()
    {
        return watchPumps;
    }

    private static boolean isHttps(final URI url)
    {
        return "https".equalsIgnoreCase(url.getScheme());
    }

    /**
     * @param url a client URL.
     * @return the address it names (port 0: any free port).
     * @throws IllegalArgumentException if it is not http://host:port or https://host:port.
     */
    static InetSocketAddress address(final URI url)
    {
        final String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https"))
        {
            throw new IllegalArgumentException("client URL " + url + ": only http:// and https:// are supported");
        }
        if (url.getHost() == null || url.getPort() < 0)
        {
            throw new IllegalArgumentException("client URL " + url + " must name a host and a port");
        }
        return new InetSocketAddress(url.getHost(), url.getPort());
    }

    /**
     * Builds {@link ServerOptions}. Not thread-safe.
     */
    public static final class Builder
    {
        private String name = DEFAULT_NAME;
        private final List<URI> listenClientUrls = new ArrayList<>();
        private final List<URI> advertiseClientUrls = new ArrayList<>();
        private Path certFile;
        private Path keyFile;
        private Path trustedCaFile;
        private boolean clientCertAuth;
        private Boolean writeAdmission;
        private int maxRequestBytes = EtcdLimits.MAX_REQUEST_BYTES;
        private int maxTxnOps = EtcdLimits.MAX_TXN_OPS;
        private int watchPumps = Math.max(1, Integer.getInteger(WATCH_PUMPS_PROPERTY,
            WatchService.defaultPumps(Runtime.getRuntime().availableProcessors())));

        private Builder()
        {
        }

        /**
         * @param name the member name (etcd's --name).
         * @return this builder.
         * @throws IllegalArgumentException if it is null or empty.
         */
        public Builder name(final String name)
        {
            if (name == null || name.isEmpty())
            {
                throw new IllegalArgumentException("name must be neither null nor empty");
            }
            this.name = name;
            return this;
        }

        /**
         * @param url a URL to listen on, http://host:port or https://host:port (port 0: any free
         *            port); may be repeated.
         * @return this builder.
         * @throws IllegalArgumentException if it is not such a URL.
         */
        public Builder listenClientUrl(final URI url)
        {
            address(url);
            listenClientUrls.add(url);
            return this;
        }

        /**
         * @param url a URL clients are told to use; may be repeated.
         * @return this builder.
         */
        public Builder advertiseClientUrl(final URI url)
        {
            if (url == null)
            {
                throw new IllegalArgumentException("advertised URL must not be null");
            }
            advertiseClientUrls.add(url);
            return this;
        }

        /**
         * Serves TLS with this certificate (etcd's --cert-file and --key-file).
         *
         * @param certFile the certificate chain, PEM.
         * @param keyFile  its private key, PEM (PKCS#8).
         * @return this builder.
         */
        public Builder tls(final Path certFile, final Path keyFile)
        {
            if (certFile == null || keyFile == null)
            {
                throw new IllegalArgumentException("certificate and key files must not be null");
            }
            this.certFile = certFile;
            this.keyFile = keyFile;
            return this;
        }

        /**
         * @param trustedCaFile the CA certificates (PEM) client certificates must chain to (etcd's
         *                      --trusted-ca-file).
         * @return this builder.
         */
        public Builder trustedCaFile(final Path trustedCaFile)
        {
            this.trustedCaFile = trustedCaFile;
            return this;
        }

        /**
         * @param required true to refuse clients without a certificate from the trusted CA (etcd's
         *                 --client-cert-auth).
         * @return this builder.
         */
        public Builder clientCertAuth(final boolean required)
        {
            clientCertAuth = required;
            return this;
        }

        /**
         * @param enabled false to take writes however far the watches of reading clients fall
         *                behind (in memory they may then be cancelled as compacted); true to hold
         *                writes even for a persistent engine. Unset: held only in memory.
         * @return this builder.
         */
        public Builder writeAdmission(final boolean enabled)
        {
            writeAdmission = enabled;
            return this;
        }

        /**
         * @param bytes etcd's --max-request-bytes (default 1.5 MiB): a write whose raft request
         *              would be larger is "request is too large", gRPC takes messages up to it
         *              plus {@link EtcdLimits#GRPC_OVERHEAD_BYTES}, and the fragments of a watch
         *              created with {@code fragment} stay below that sum, as etcd's watch server's. An embedder's engine takes values
         *              of that size only with {@link EtcdLimits#applyTo(io.ringwatch.engine.config.RingWatchConfig.Builder, int)}.
         * @return this builder.
         * @throws IllegalArgumentException if it is not positive or leaves gRPC's limit over 2 GiB.
         */
        public Builder maxRequestBytes(final int bytes)
        {
            if (bytes <= 0 || bytes > Integer.MAX_VALUE - EtcdLimits.GRPC_OVERHEAD_BYTES)
            {
                throw new IllegalArgumentException("max request bytes must be positive and below 2 GiB: " + bytes);
            }
            maxRequestBytes = bytes;
            return this;
        }

        /**
         * @param ops etcd's --max-txn-ops (default 128): the most operations in each list of a
         *            transaction (compares, then ops, else ops).
         * @return this builder.
         * @throws IllegalArgumentException if it is not positive.
         */
        public Builder maxTxnOps(final int ops)
        {
            if (ops <= 0)
            {
                throw new IllegalArgumentException("max txn ops must be positive: " + ops);
            }
            maxTxnOps = ops;
            return this;
        }

        /**
         * @param pumps how many watch pump threads serve the watch streams: each stream is given
         *              to one when it opens, in turn, so more pumps spread the work of several
         *              streams (not of one stream's watches). Default: the system property
         *              {@value #WATCH_PUMPS_PROPERTY} if set (the test suite runs with it to
         *              serve every test from several pumps), else
         *              {@link WatchService#defaultPumps} of the available processors.
         * @return this builder.
         * @throws IllegalArgumentException if it is below 1.
         */
        public Builder watchPumps(final int pumps)
        {
            if (pumps < 1)
            {
                throw new IllegalArgumentException("watch pumps must be at least 1: " + pumps);
            }
            watchPumps = pumps;
            return this;
        }

        /**
         * @return the options.
         * @throws IllegalArgumentException if the URLs and TLS settings do not fit together.
         */
        public ServerOptions build()
        {
            return new ServerOptions(this);
        }
    }
}
