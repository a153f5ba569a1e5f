package io.ringwatch.perf.peer;

import io.ringwatch.perf.load.CancellationTally;
import io.ringwatch.perf.load.LatencyRecorder;
import io.ringwatch.perf.load.Peer;
import io.ringwatch.perf.load.PeerWriter;
import io.ringwatch.perf.load.Workload;

import java.nio.file.Path;
import java.util.Locale;

/**
 * RingWatch's etcd v3 server ({@code server} module) as a peer: started in a process of its own by
 * {@link ServerProcess} for each run, then driven exactly as the {@code etcd} peer is ({@link EtcdPeer}:
 * the same client, puts in flight, prefix watches), so the two differ only in the server.
 * SYNC is the durability to set against etcd, whose WAL is fsync'd before a put is answered.
 * Main-thread methods as {@link Peer} says; allocates what its client allocates.
 */
public final class RingWatchServerPeer implements Peer
{
    private final Persistence persistence;
    private final ServerProcess server;
    private final EtcdPeer client;

    /**
     * Starts the server and connects to it.
     *
     * @param script      the server's start script.
     * @param persistence its durability.
     * @param dataDir     a fresh directory for its revision log; ignored in memory.
     * @param settings    the client that drives it, its connections and puts outstanding (the etcd peer's).
     * @throws IllegalStateException if the server does not start or answer.
     */
    public RingWatchServerPeer(final Path script, final Persistence persistence, final Path dataDir,
        final EtcdClientSettings settings)
    {
        if (persistence != Persistence.NONE && dataDir == null)
        {
            throw new IllegalArgumentException("persistence " + persistence.name().toLowerCase(Locale.ROOT) + " needs --data-dir");
        }
        this.persistence = persistence;
        this.server = ServerProcess.start(script, persistence, dataDir);
        try
        {
            this.client = new EtcdPeer(name(persistence), server.endpoint(), settings);
        }
        catch (final RuntimeException e)
        {
            server.close();
            throw e;
        }
    }

    /**
     * @param persistence a durability.
     * @return the peer's name in reports: {@code ringwatch-server} in memory, else with the mode.
     */
    static String name(final Persistence persistence)
    {
        return persistence == Persistence.NONE ? "ringwatch-server" :
            "ringwatch-server-" + persistence.name().toLowerCase(Locale.ROOT);
    }

    @Override
    public String name()
    {
        return client.name();
    }

    @Override
    public String description()
    {
        final String durability = switch (persistence)
        {
            case NONE -> "in memory";
            case ASYNC -> "revision log, ASYNC (acknowledged once appended)";
            case SYNC -> "revision log, SYNC (acknowledged once on disk, as etcd's fsync'd WAL)";
        };
        return "RingWatch etcd v3 server in its own JVM, " + durability + ", at " + server.endpoint() +
            " (" + client.clientDescription() + "; server log " + server.log() + ")";
    }

    @Override
    public void preload(final Workload workload) throws InterruptedException
    {
        client.preload(workload);
    }

    @Override
    public void watch(
        final byte[] prefix, final boolean pull, final LatencyRecorder deliveries, final CancellationTally cancellations)
    {
        client.watch(prefix, pull, deliveries, cancellations);
    }

    @Override
    public void ready()
    {
        client.ready();
    }

    @Override
    public PeerWriter newWriter(final Workload workload, final LatencyRecorder acks)
    {
        return client.newWriter(workload, acks);
    }

    @Override
    public long failedWrites()
    {
        return client.failedWrites();
    }

    @Override
    public void close()
    {
        try
        {
            client.close();
        }
        finally
        {
            server.close();
        }
    }
}
