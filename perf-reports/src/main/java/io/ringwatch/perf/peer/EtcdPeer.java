package io.ringwatch.perf.peer;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.options.WatchOption;
import io.etcd.jetcd.watch.WatchEvent;
import io.etcd.jetcd.watch.WatchResponse;
import io.ringwatch.perf.load.CancellationTally;
import io.ringwatch.perf.load.LatencyRecorder;
import io.ringwatch.perf.load.Peer;
import io.ringwatch.perf.load.PeerWriter;
import io.ringwatch.perf.load.ThreadLatency;
import io.ringwatch.perf.load.ValueCodec;
import io.ringwatch.perf.load.Workload;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * An etcd v3 server as a real peer (etcd itself, or RingWatch's etcd-compatible server through
 * {@link RingWatchServerPeer}), driven over gRPC by jetcd: puts with up to
 * {@code maxInFlight} outstanding per producer, prefix watches starting at the revision after the
 * preload (so no event is missed while the watch streams open), latency recorded on jetcd's
 * callback threads. Everything here allocates (protobuf, futures): it measures etcd as a client
 * sees it, over loopback.
 */
public final class EtcdPeer implements Peer
{
    private static final long REQUEST_TIMEOUT_SECONDS = 30;

    private final String name;
    private final String endpoint;
    private final int maxInFlight;
    private final Client client;
    private final KV kv;
    private final List<Watch.Watcher> watchers = new ArrayList<>();
    private final LongAdder failures = new LongAdder();
    private final String serverVersion;
    private long watchFromRevision;

    /**
     * Connects to an etcd server and reads its version.
     *
     * @param endpoint    the server, e.g. {@code http://127.0.0.1:2379}.
     * @param maxInFlight puts outstanding per producer, at least 1.
     * @throws IllegalStateException if the server does not answer.
     */
    public EtcdPeer(final String endpoint, final int maxInFlight)
    {
        this("etcd", endpoint, maxInFlight);
    }

    /**
     * Connects to an etcd v3 server and reads its version.
     *
     * @param name        the peer's name in reports.
     * @param endpoint    the server, e.g. {@code http://127.0.0.1:2379}.
     * @param maxInFlight puts outstanding per producer, at least 1.
     * @throws IllegalStateException if the server does not answer.
     */
    EtcdPeer(final String name, final String endpoint, final int maxInFlight)
    {
        if (maxInFlight < 1)
        {
            throw new IllegalArgumentException("etcd max in flight must be at least 1: " + maxInFlight);
        }
        this.name = name;
        this.endpoint = endpoint;
        this.maxInFlight = maxInFlight;
        this.client = Client.builder().endpoints(endpoint).build();
        this.kv = client.getKVClient();
        try
        {
            this.serverVersion = await(client.getMaintenanceClient().statusMember(endpoint)).getVersion();
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
        return "etcd " + serverVersion + " at " + endpoint + " (jetcd 0.8.7 over loopback gRPC, " + maxInFlight +
            " puts in flight per producer)";
    }

    @Override
    public void preload(final Workload workload) throws InterruptedException
    {
        final Semaphore inFlight = new Semaphore(maxInFlight);
        final AtomicLong lastRevision = new AtomicLong();
        final ByteSequence value = ByteSequence.from(new byte[workload.valueSize()]);
        for (int k = 0; k < workload.keyCount(); k++)
        {
            inFlight.acquire();
            kv.put(ByteSequence.from(workload.key(k)), value).whenComplete((response, error) ->
            {
                if (error == null)
                {
                    lastRevision.accumulateAndGet(response.getHeader().getRevision(), Math::max);
                }
                else
                {
                    failures.increment();
                }
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
        final WatchOption option = WatchOption.builder().isPrefix(true).withRevision(watchFromRevision).build();
        watchers.add(client.getWatchClient().watch(ByteSequence.from(prefix), option, Watch.listener(
            response -> record(response, deliveries),
            error -> cancellations.add("WATCH_ERROR " + error.getClass().getSimpleName()))));
    }

    @Override
    public void ready()
    {
    }

    @Override
    public PeerWriter newWriter(final Workload workload, final LatencyRecorder acks)
    {
        final ByteSequence[] keys = new ByteSequence[workload.keyCount()];
        for (int k = 0; k < keys.length; k++)
        {
            keys[k] = ByteSequence.from(workload.key(k));
        }
        final byte[] value = new byte[workload.valueSize()];
        final Semaphore inFlight = new Semaphore(maxInFlight);
        return (keyIndex, intendedNanos) ->
        {
            // Waiting for room delays the send, and so counts as latency of this write.
            inFlight.acquire();
            ValueCodec.writeIntended(value, intendedNanos);
            kv.put(keys[keyIndex], ByteSequence.from(value)).whenComplete((response, error) ->
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
        for (final Watch.Watcher watcher : watchers)
        {
            watcher.close();
        }
        client.close();
    }

    private static void record(final WatchResponse response, final LatencyRecorder deliveries)
    {
        final long now = System.nanoTime();
        final ThreadLatency latency = deliveries.forCurrentThread();
        for (final WatchEvent event : response.getEvents())
        {
            latency.record(ValueCodec.intendedNanos(event.getKeyValue().getValue().getBytes()), now);
        }
    }

    private static <T> T await(final java.util.concurrent.CompletableFuture<T> future)
    {
        try
        {
            return future.get(REQUEST_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for etcd", e);
        }
        catch (final ExecutionException | TimeoutException e)
        {
            throw new IllegalStateException("etcd at the endpoint did not answer: " + e, e);
        }
    }
}
