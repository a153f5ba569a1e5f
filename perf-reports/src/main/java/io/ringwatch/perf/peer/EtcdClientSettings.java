package io.ringwatch.perf.peer;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * How the etcd-protocol peers ({@code etcd}, {@code ringwatch-server}) drive their server: which
 * client, over how many connections, with how many puts outstanding per producer (in all, whatever
 * the connections: they share it). The same settings drive both peers of a run. Immutable.
 *
 * @param kind        the client.
 * @param connections independent client connections, at least 1; puts and watches are spread over
 *                    them in turn ({@link RoundRobinClient}).
 * @param maxInFlight puts outstanding per producer, at least 1.
 */
public record EtcdClientSettings(EtcdClientKind kind, int connections, int maxInFlight)
{
    /**
     * @throws IllegalArgumentException if connections or maxInFlight is below 1.
     */
    public EtcdClientSettings
    {
        Objects.requireNonNull(kind, "kind");
        if (connections < 1)
        {
            throw new IllegalArgumentException("etcd connections must be at least 1: " + connections);
        }
        if (maxInFlight < 1)
        {
            throw new IllegalArgumentException("etcd max in flight must be at least 1: " + maxInFlight);
        }
    }

    /**
     * Opens the connections: one client when {@link #connections()} is 1 (as before the option
     * existed), else a {@link RoundRobinClient} over that many.
     *
     * @param endpoint the server, e.g. {@code http://127.0.0.1:2379}.
     * @return the client; the caller closes it.
     */
    EtcdClient connect(final String endpoint)
    {
        if (connections == 1)
        {
            return kind.connect(endpoint);
        }
        final List<EtcdClient> opened = new ArrayList<>(connections);
        try
        {
            for (int i = 0; i < connections; i++)
            {
                opened.add(kind.connect(endpoint));
            }
        }
        catch (final RuntimeException e)
        {
            for (final EtcdClient client : opened)
            {
                client.close();
            }
            throw e;
        }
        return new RoundRobinClient(opened);
    }
}
