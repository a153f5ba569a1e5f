package io.ringwatch.perf.peer;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One {@link EtcdClient} over several others of one kind, each its own connection: puts go to them
 * in turn, and so do watches, so that N connections each carry about 1/N of the puts and of the
 * watch streams. A server serves each HTTP/2 connection on one event loop (and a client reads each
 * on one), so one connection caps what both sides can do in parallel; this spreads the load without
 * changing it: the caller still decides how many puts are in flight in all. Thread-safe; a put
 * costs one atomic increment over what the chosen client costs.
 */
final class RoundRobinClient implements EtcdClient
{
    private final EtcdClient[] clients;
    private final AtomicLong nextPut = new AtomicLong();
    private final AtomicLong nextWatch = new AtomicLong();

    /**
     * @param clients the connections, at least one; closed by {@link #close()}.
     */
    RoundRobinClient(final List<EtcdClient> clients)
    {
        if (clients.isEmpty())
        {
            throw new IllegalArgumentException("no clients to spread over");
        }
        this.clients = clients.toArray(new EtcdClient[0]);
    }

    @Override
    public String description()
    {
        return clients[0].description() + " on " + clients.length + " connections (round-robin)";
    }

    /**
     * Asks every connection, so that a run starts only once each of them answers.
     *
     * @return the version the first connection's server reports.
     */
    @Override
    public String serverVersion()
    {
        final String version = clients[0].serverVersion();
        for (int i = 1; i < clients.length; i++)
        {
            clients[i].serverVersion();
        }
        return version;
    }

    @Override
    public CompletableFuture<Long> put(final byte[] key, final byte[] value, final PutDone done)
    {
        return clients[next(nextPut)].put(key, value, done);
    }

    @Override
    public void watchPrefix(final byte[] prefix, final long fromRevision, final EventSink sink)
    {
        clients[next(nextWatch)].watchPrefix(prefix, fromRevision, sink);
    }

    /** Closes every connection, even where one of them throws; rethrows the first failure. */
    @Override
    public void close()
    {
        RuntimeException first = null;
        for (final EtcdClient client : clients)
        {
            try
            {
                client.close();
            }
            catch (final RuntimeException e)
            {
                if (first == null)
                {
                    first = e;
                }
                else
                {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null)
        {
            throw first;
        }
    }

    private int next(final AtomicLong counter)
    {
        return (int)Long.remainderUnsigned(counter.getAndIncrement(), clients.length);
    }
}
