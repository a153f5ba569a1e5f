package io.ringwatch.server;

import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How a {@link RingWatchServer} presents itself: the member name and the URLs it listens on and
 * advertises, as etcd's {@code --name}, {@code --listen-client-urls} and
 * {@code --advertise-client-urls}. Immutable and thread-safe; build it with {@link #builder()}.
 */
public final class ServerOptions
{
    /** etcd's default member name. */
    public static final String DEFAULT_NAME = "default";
    /** etcd's default client URL. */
    public static final String DEFAULT_CLIENT_URL = "http://localhost:2379";

    private final String name;
    private final List<URI> listenClientUrls;
    private final List<URI> advertiseClientUrls;

    private ServerOptions(final Builder builder)
    {
        name = builder.name;
        listenClientUrls = List.copyOf(builder.listenClientUrls.isEmpty() ? List.of(URI.create(DEFAULT_CLIENT_URL)) : builder.listenClientUrls);
        advertiseClientUrls = List.copyOf(builder.advertiseClientUrls.isEmpty() ? listenClientUrls : builder.advertiseClientUrls);
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
     * @param url a client URL.
     * @return the address it names (port 0: any free port).
     * @throws IllegalArgumentException if it is not http://host:port (https needs TLS, not supported yet).
     */
    static InetSocketAddress address(final URI url)
    {
        final String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http"))
        {
            throw new IllegalArgumentException("client URL " + url + ": only http:// is supported (TLS is not supported yet)");
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
         * @param url a URL to listen on, http://host:port (port 0: any free port); may be repeated.
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
         * @return the options.
         */
        public ServerOptions build()
        {
            return new ServerOptions(this);
        }
    }
}
