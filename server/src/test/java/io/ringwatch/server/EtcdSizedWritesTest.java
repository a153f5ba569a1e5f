package io.ringwatch.server;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.kv.PutResponse;
import io.etcd.jetcd.options.WatchOption;
import io.etcd.jetcd.watch.WatchEvent;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.server.kv.EtcdLimits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.Arrays;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Writes of the sizes etcd takes with its defaults (no key or value limit, 1.5 MiB per request) go
 * through a server whose engine has {@link EtcdLimits}, as `ringwatch-server`'s has: a value of
 * 1.4 MiB (a large Kubernetes object) and a 10 KiB key are stored, read and watched whole, and a
 * request over 1.5 MiB is etcd's "request is too large".
 */
class EtcdSizedWritesTest
{
    @RegisterExtension
    static final ServerFixture fixture = new ServerFixture(EtcdLimits.applyTo(RingWatchConfig.builder().name("etcd-sized")).build());

    @Test
    void aValueOfOnePointFourMebibytesAndATenKibibyteKeyAreStoredReadAndWatchedWhole() throws Exception
    {
        final KV kv = fixture.client.getKVClient();
        final ByteSequence key = ByteSequence.from(filled(10 * 1024, 'k'));
        final byte[] value = filled(1_400_000, 'v');
        final PutResponse put = kv.put(key, ByteSequence.from(value)).get(30, TimeUnit.SECONDS);

        final KeyValue got = kv.get(key).get(30, TimeUnit.SECONDS).getKvs().get(0);
        assertArrayEquals(value, got.getValue().getBytes());
        assertEquals(put.getHeader().getRevision(), got.getModRevision());

        final BlockingQueue<WatchEvent> events = new LinkedBlockingQueue<>();
        final Watch watch = fixture.client.getWatchClient();
        try (Watch.Watcher ignored = watch.watch(key, WatchOption.builder().withRevision(put.getHeader().getRevision()).build(),
            response -> events.addAll(response.getEvents())))
        {
            final WatchEvent event = events.poll(30, TimeUnit.SECONDS);
            assertNotNull(event, "no event within 30 s");
            assertEquals(WatchEvent.EventType.PUT, event.getEventType());
            assertArrayEquals(key.getBytes(), event.getKeyValue().getKey().getBytes());
            assertArrayEquals(value, event.getKeyValue().getValue().getBytes());
        }
    }

    @Test
    void aPutOverOnePointFiveMebibytesIsEtcdsRequestTooLarge()
    {
        final KV kv = fixture.client.getKVClient();
        final ExecutionException failed = assertThrows(ExecutionException.class,
            () -> kv.put(ByteSequence.from(filled(8, 'b')), ByteSequence.from(filled(EtcdLimits.MAX_REQUEST_BYTES + 1, 'v')))
                .get(30, TimeUnit.SECONDS));
        assertTrue(failed.getCause().getMessage().contains("etcdserver: request is too large"), failed.getCause().getMessage());
    }

    private static byte[] filled(final int length, final char c)
    {
        final byte[] bytes = new byte[length];
        Arrays.fill(bytes, (byte)c);
        return bytes;
    }
}
