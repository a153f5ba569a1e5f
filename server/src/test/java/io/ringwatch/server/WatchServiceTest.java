package io.ringwatch.server;

import io.etcd.jetcd.KV;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.common.exception.CompactedException;
import io.etcd.jetcd.options.WatchOption;
import io.etcd.jetcd.watch.WatchEvent;
import io.etcd.jetcd.watch.WatchResponse;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static io.ringwatch.server.ServerFixture.bytes;
import static io.ringwatch.server.ServerFixture.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * etcd's Watch service as jetcd uses it: prefix watches, replay from a past revision, a compacted
 * start, filters, prev_kv, cancel. Every wait is bounded by a generous timeout that only a broken
 * server reaches; assertions are on what arrives, never on how fast.
 */
class WatchServiceTest
{
    private static final long WAIT_SECONDS = 20;
    private static final WatchOption CREATE_NOTIFY = WatchOption.builder().withCreateNotify(true).build();
    @RegisterExtension
    static final ServerFixture fixture = new ServerFixture();
    private static KV kv;
    private static Watch watch;

    @BeforeAll
    static void start()
    {
        kv = fixture.client.getKVClient();
        watch = fixture.client.getWatchClient();
    }

    @Test
    void prefixWatchSeesPutsAndDeletesInOrder() throws Exception
    {
        final Events events = new Events();
        try (Watch.Watcher ignored = watch.watch(bytes("w/"), WatchOption.builder().isPrefix(true).withCreateNotify(true).build(), events.listener()))
        {
            events.awaitCreated();
            kv.put(bytes("w/a"), bytes("1")).get();
            kv.put(bytes("wz"), bytes("outside")).get();
            kv.delete(bytes("w/a")).get();
            final List<WatchEvent> got = events.take(2);
            assertEquals(WatchEvent.EventType.PUT, got.get(0).getEventType());
            assertEquals("1", text(got.get(0).getKeyValue().getValue()));
            assertEquals(WatchEvent.EventType.DELETE, got.get(1).getEventType());
            assertEquals("w/a", text(got.get(1).getKeyValue().getKey()));
        }
    }

    @Test
    void watchFromAPastRevisionReplaysHistoryWithPrevKv() throws Exception
    {
        final long first = kv.put(bytes("r/a"), bytes("1")).get().getHeader().getRevision();
        kv.put(bytes("r/a"), bytes("2")).get();
        kv.put(bytes("r/b"), bytes("3")).get();
        final Events events = new Events();
        try (Watch.Watcher ignored = watch.watch(bytes("r/"),
            WatchOption.builder().isPrefix(true).withRevision(first).withPrevKV(true).build(), events.listener()))
        {
            final List<WatchEvent> got = events.take(3);
            assertEquals(List.of("1", "2", "3"), got.stream().map(e -> text(e.getKeyValue().getValue())).collect(Collectors.toList()));
            assertEquals(first, got.get(0).getKeyValue().getModRevision());
            assertEquals("1", text(got.get(1).getPrevKV().getValue()));
            assertTrue(got.get(2).getPrevKV().getKey().isEmpty(), "a new key has no previous key-value");
        }
    }

    @Test
    void watchFromACompactedRevisionFailsWithTheCompactRevision() throws Exception
    {
        final long old = kv.put(bytes("cw/a"), bytes("1")).get().getHeader().getRevision();
        final long compactAt = kv.put(bytes("cw/a"), bytes("2")).get().getHeader().getRevision();
        kv.compact(compactAt).get();
        final Events events = new Events();
        try (Watch.Watcher ignored = watch.watch(bytes("cw/a"), WatchOption.builder().withRevision(old).build(), events.listener()))
        {
            final Throwable error = events.errors.poll(WAIT_SECONDS, TimeUnit.SECONDS);
            assertNotNull(error, "no error for a compacted start");
            assertTrue(error instanceof CompactedException, () -> "not a CompactedException: " + error);
            assertEquals(compactAt, ((CompactedException)error).getCompactedRevision());
        }
    }

    @Test
    void filtersDropPutsOrDeletes() throws Exception
    {
        final Events noPut = new Events();
        final Events noDelete = new Events();
        try (Watch.Watcher a = watch.watch(bytes("fl/k"), WatchOption.builder().withNoPut(true).withCreateNotify(true).build(), noPut.listener());
             Watch.Watcher b = watch.watch(bytes("fl/k"), WatchOption.builder().withNoDelete(true).withCreateNotify(true).build(), noDelete.listener()))
        {
            noPut.awaitCreated();
            noDelete.awaitCreated();
            kv.put(bytes("fl/k"), bytes("1")).get();
            kv.delete(bytes("fl/k")).get();
            kv.put(bytes("fl/k"), bytes("2")).get();
            assertEquals(WatchEvent.EventType.DELETE, noPut.take(1).get(0).getEventType());
            final List<WatchEvent> puts = noDelete.take(2);
            assertEquals(List.of("1", "2"), puts.stream().map(e -> text(e.getKeyValue().getValue())).collect(Collectors.toList()));
        }
    }

    @Test
    void aClosedWatcherGetsNoMoreEvents() throws Exception
    {
        final Events closed = new Events();
        final Events open = new Events();
        try (Watch.Watcher keep = watch.watch(bytes("cl/k"), CREATE_NOTIFY, open.listener()))
        {
            final Watch.Watcher cancel = watch.watch(bytes("cl/k"), CREATE_NOTIFY, closed.listener());
            closed.awaitCreated();
            open.awaitCreated();
            kv.put(bytes("cl/k"), bytes("1")).get();
            closed.take(1);
            open.take(1);
            cancel.close();
            kv.put(bytes("cl/k"), bytes("2")).get();
            assertEquals("2", text(open.take(1).get(0).getKeyValue().getValue()));
            // The open watcher saw revision 2, which was written after the cancel: the closed one never will.
            assertNull(closed.events.poll(200, TimeUnit.MILLISECONDS));
        }
    }

    /** What one jetcd watcher received. */
    static final class Events
    {
        final BlockingQueue<WatchEvent> events = new LinkedBlockingQueue<>();
        final BlockingQueue<Throwable> errors = new LinkedBlockingQueue<>();
        final CompletableFuture<Void> created = new CompletableFuture<>();

        Watch.Listener listener()
        {
            return Watch.listener((WatchResponse response) ->
            {
                if (response.isCreatedNotify())
                {
                    created.complete(null);
                }
                events.addAll(response.getEvents());
            }, errors::add);
        }

        List<WatchEvent> take(final int count) throws InterruptedException
        {
            final List<WatchEvent> taken = new java.util.ArrayList<>();
            for (int i = 0; i < count; i++)
            {
                final WatchEvent event = events.poll(WAIT_SECONDS, TimeUnit.SECONDS);
                assertNotNull(event, "event " + (i + 1) + " of " + count + " never came; errors: " + errors);
                taken.add(event);
            }
            return taken;
        }

        /**
         * jetcd creates its watch asynchronously: a write made after the created notification
         * (asked for with withCreateNotify) is one the watch must see.
         */
        void awaitCreated() throws Exception
        {
            created.get(WAIT_SECONDS, TimeUnit.SECONDS);
        }
    }
}
