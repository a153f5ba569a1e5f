package io.ringwatch.perf.peer;

import io.ringwatch.perf.load.CancellationTally;
import io.ringwatch.perf.load.LatencyRecorder;
import io.ringwatch.perf.load.Peer;
import io.ringwatch.perf.load.PeerWriter;
import io.ringwatch.perf.load.ValueCodec;
import io.ringwatch.perf.load.Workload;

import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * An etcd v3 server as a real peer (etcd itself, or RingWatch's etcd-compatible server through
 * {@link RingWatchServerPeer}), driven over gRPC by an {@link EtcdClient} (jetcd, or grpc-java's
 * stubs: {@link EtcdClientKind}) on one connection or several ({@link EtcdClientSettings}): puts with
 * up to {@code maxInFlight} outstanding per producer, whatever the connections,
 * prefix watches starting at the revision after the preload (so no event is missed while the watch
 * streams open), latency recorded on the client's callback threads. Everything here allocates
 * (protobuf, futures): it measures etcd as a client sees it, over loopback.
 */
public final class EtcdPeer implements Peer
{
    private final String name;
    private final String endpoint;
    private final int maxInFlight;
    private final int connections;
    private final EtcdClient client;
    private final LongAdder failures = new LongAdder();
    private final String serverVersion;
    private long watchFromRevision;

    /**
     * Connects to an etcd server and reads its version.
     *
     * @param endpoint the server, e.g. {@code http://127.0.0.1:2379}.
     * @param settings the client, its connections and the puts outstanding per producer.
     * @throws IllegalStateException if the server does not answer on every connection.
     */
    public EtcdPeer(final String endpoint, final EtcdClientSettings settings)
    {
        this("etcd", endpoint, settings);
    }

    /**
     * Connects to an etcd v3 server and reads its version.
     *
     * @param name     the peer's name in reports.
     * @param endpoint the server, e.g. {@code http://127.0.0.1:2379}.
     * @param settings the client, its connections and the puts outstanding per producer.
     * @throws IllegalStateException if the server does not answer on every connection.
     */
    EtcdPeer(final String name, final String endpoint, final EtcdClientSettings settings)
    {
        this.name = name;
        this.endpoint = endpoint;
        this.maxInFlight = settings.maxInFlight();
        this.connections = settings.connections();
        this.client = settings.connect(endpoint);
        try
        {
            this.serverVersion = client.serverVersion();
        }
        catch (final RuntimeException e)
        {
            client.close();
            throw e;
        }
    }

    @Override
    public String name()
    {
        return name;
    }

    @Override
    public String description()
    {
        return "etcd " + serverVersion + " at " + endpoint + " (" + clientDescription() + ")";
    }

    /**
     * @return the client and its load, for reports.
     */
    String clientDescription()
    {
        return client.description() + " over loopback gRPC, " + maxInFlight + " puts in flight per producer" +
            (connections == 1 ? "" : " across its " + connections + " connections");
    }

    @Override
    public void preload(final Workload workload) throws InterruptedException
    {
        final Semaphore inFlight = new Semaphore(maxInFlight);
        final AtomicLong lastRevision = new AtomicLong();
        final byte[] value = new byte[workload.valueSize()];
        for (int k = 0; k < workload.keyCount(); k++)
        {
            inFlight.acquire();
            client.put(workload.key(k), value, error ->
            {
                if (error != null)
                {
                    failures.increment();
                }
            }).thenAccept(revision ->
            {
                lastRevision.accumulateAndGet(revision, Math::max);
                inFlight.release();
            });
        }
        inFlight.acquire(maxInFlight);
        watchFromRevision = lastRevision.get() + 1;
    }

    @Override
    public void watch(
        final byte[] prefix, final boolean pull, final LatencyRecorder deliveries, final CancellationTally cancellations)
    {
        if (pull)
        {
            throw new IllegalArgumentException("the etcd peer has no pull watchers");
        }
        client.watchPrefix(prefix, watchFromRevision, new EtcdClient.EventSink()
        {
            @Override
            public void onEvent(final long intendedNanos, final long receivedNanos)
            {
                deliveries.forCurrentThread().record(intendedNanos, receivedNanos);
            }

            @Override
            public void onError(final Throwable error)
            {
                cancellations.add("WATCH_ERROR " + error.getClass().getSimpleName());
            }
        });
    }

    @Override
    public void ready()
    {
    }

    @Override
    public PeerWriter newWriter(final Workload workload, final LatencyRecorder acks)
    {
        final byte[] value = new byte[workload.valueSize()];
        final Semaphore inFlight = new Semaphore(maxInFlight);
        return (keyIndex, intendedNanos) ->
        {
            // Waiting for room delays the send, and so counts as latency of this write.
            inFlight.acquire();
            ValueCodec.writeIntended(value, intendedNanos);
            client.put(workload.key(keyIndex), value, error ->
            {
                if (error != null)
                {
                    failures.increment();
                }
                acks.forCurrentThread().record(intendedNanos, System.nanoTime());
                inFlight.release();
            });
        };
    }

    @Override
    public long failedWrites()
    {
        return failures.sum();
    }

    @Override
    public void close()
    {
        client.close();
    }
}
