package io.ringwatch.perf.peer;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.options.WatchOption;
import io.etcd.jetcd.watch.WatchEvent;
import io.ringwatch.perf.load.ValueCodec;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@link EtcdClient} over jetcd 0.8.7, the client an etcd user in Java would pick: its KV and
 * Watch clients, with their byte-sequence wrappers and futures. Allocates per put and per event.
 */
final class JetcdClient implements EtcdClient
{
    private static final long REQUEST_TIMEOUT_SECONDS = 30;

    private final String endpoint;
    private final Client client;
    private final KV kv;
    private final List<Watch.Watcher> watchers = new ArrayList<>();

    JetcdClient(final String endpoint)
    {
        this.endpoint = endpoint;
        this.client = Client.builder().endpoints(endpoint).build();
        this.kv = client.getKVClient();
    }

    @Override
    public String description()
    {
        return "jetcd 0.8.7";
    }

    @Override
    public String serverVersion()
    {
        try
        {
            return client.getMaintenanceClient().statusMember(endpoint).get(REQUEST_TIMEOUT_SECONDS, TimeUnit.SECONDS).getVersion();
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

    @Override
    public CompletableFuture<Long> put(final byte[] key, final byte[] value, final PutDone done)
    {
        return kv.put(ByteSequence.from(key), ByteSequence.from(value)).handle((response, error) ->
        {
            done.done(error);
            return error == null ? response.getHeader().getRevision() : 0L;
        });
    }

    @Override
    public synchronized void watchPrefix(final byte[] prefix, final long fromRevision, final EventSink sink)
    {
        final WatchOption option = WatchOption.builder().isPrefix(true).withRevision(fromRevision).build();
        watchers.add(client.getWatchClient().watch(ByteSequence.from(prefix), option, Watch.listener(response ->
        {
            final long now = System.nanoTime();
            for (final WatchEvent event : response.getEvents())
            {
                sink.onEvent(ValueCodec.intendedNanos(event.getKeyValue().getValue().getBytes()), now);
            }
        }, sink::onError)));
    }

    @Override
    public synchronized void close()
    {
        for (final Watch.Watcher watcher : watchers)
        {
            watcher.close();
        }
        client.close();
    }
}
