package io.ringwatch.engine.coalesce;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.kv.RangeResult;
import io.ringwatch.engine.watch.CancelReason;
import io.ringwatch.engine.watch.Delta;
import io.ringwatch.engine.watch.DeltaBatch;
import io.ringwatch.engine.watch.DeltaWatcher;
import io.ringwatch.engine.watch.Event;
import io.ringwatch.engine.watch.EventBatch;
import io.ringwatch.engine.watch.EventType;
import io.ringwatch.engine.watch.ListWatch;
import io.ringwatch.engine.watch.WatchCancellation;
import io.ringwatch.engine.watch.WatchEvent;
import io.ringwatch.engine.watch.WatchListener;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.engine.watch.Watcher;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CoalescingWatcherTest
{
    private static final Duration PATIENCE = Duration.ofSeconds(20);

    private RingWatch engine;

    @AfterEach
    void close()
    {
        if (engine != null)
        {
            engine.close();
        }
    }

    @Test
    void everyChangeOfAKeyCollapsesIntoItsLatestState() throws InterruptedException
    {
        engine = RingWatch.open();
        final DeltaWatcher watcher = engine.watchDeltas(WatchRequest.of(KeyRange.prefix("/k/")));
        for (int i = 0; i < 1_000; i++)
        {
            engine.put("/k/" + (i % 10), "v" + i);
        }
        final long last = engine.currentRevision();

        final ClientState client = new ClientState();
        while (client.complete < last)
        {
            final DeltaBatch batch = watcher.next(PATIENCE);
            assertTrue(batch.deltas().size() <= 10, "at most one delta per key: " + batch);
            client.apply(batch);
        }
        assertEquals(rangeOf(engine, "/k/"), client.state);
        assertEquals(991, client.revisionOf("/k/0"), "the key's newest change: put 990, revision 991");
    }

    @Test
    void aDeletedKeyIsReportedRemovedWithTheDeleteRevision() throws InterruptedException
    {
        engine = RingWatch.open();
        final DeltaWatcher watcher = engine.watchDeltas(WatchRequest.of(KeyRange.prefix("/k/")));
        engine.put("/k/a", "1");
        engine.put("/k/b", "1");
        final long deleted = engine.delete(KeyRange.key("/k/a")).revision();
        engine.put("/k/c", "1");
        engine.delete(KeyRange.key("/k/c"));

        final ClientState client = new ClientState();
        final long last = engine.currentRevision();
        while (client.complete < last)
        {
            client.apply(watcher.next(PATIENCE));
        }
        assertEquals(Map.of("/k/b", "1"), client.state);
        assertEquals(deleted, client.removedAt.get("/k/a"));
        assertTrue(client.removedAt.containsKey("/k/c"), "created and removed between two calls: reported removed");
    }

    @Test
    void aNeverPolledWatcherHoldsOneDeltaPerKeyAndEndsUpExactEvenWhenTheWindowLapsItsWatch() throws InterruptedException
    {
        engine = RingWatch.open(RingWatchConfig.builder().windowCapacity(16, 16).windowFreshness(Duration.ofNanos(1)).build());
        final DeltaWatcher watcher = engine.watchDeltas(WatchRequest.of(KeyRange.prefix("/k/")));
        for (int i = 0; i < 50_000; i++)
        {
            engine.put("/k/" + (i % 20), "v" + i);
            if (i % 7 == 0)
            {
                engine.delete(KeyRange.key("/k/" + (i % 13)));
            }
        }
        final long last = engine.currentRevision();

        final ClientState client = new ClientState();
        while (client.complete < last)
        {
            final DeltaBatch batch = watcher.next(PATIENCE);
            assertNull(batch.cancellation(), "a coalescing watcher is never cancelled for lagging: " + batch);
            assertTrue(batch.deltas().size() <= 20, "bounded by the distinct keys: " + batch);
            client.apply(batch);
        }
        assertEquals(rangeOf(engine, "/k/"), client.state);
        assertFalse(watcher.isCancelled());
    }

    @Test
    void randomWritesAndRandomCallsEndInTheEnginesState() throws InterruptedException
    {
        final long seed = System.nanoTime();
        System.out.println("CoalescingWatcherTest seed " + seed);
        final Random random = new Random(seed);
        engine = RingWatch.open(RingWatchConfig.builder().windowCapacity(64, 64).windowFreshness(Duration.ofNanos(1)).build());
        final DeltaWatcher watcher = engine.watchDeltas(WatchRequest.of(KeyRange.prefix("/m/")));
        final ClientState client = new ClientState();
        for (int i = 0; i < 5_000; i++)
        {
            final int op = random.nextInt(10);
            final String key = "/m/" + random.nextInt(50);
            if (op < 6)
            {
                engine.put(key, "v" + i);
            }
            else if (op < 8)
            {
                engine.delete(KeyRange.key(key));
            }
            else if (op < 9)
            {
                engine.delete(KeyRange.prefix("/m/" + random.nextInt(5)));
            }
            else
            {
                client.apply(watcher.next(Duration.ZERO));
            }
        }
        final long last = engine.currentRevision();
        while (client.complete < last)
        {
            client.apply(watcher.next(PATIENCE));
        }
        assertEquals(rangeOf(engine, "/m/"), client.state, "seed " + seed);
    }

    @Test
    void aWatchThatLostItsEventsIsListedAgainAndHandedOverAsAReset() throws InterruptedException
    {
        final FakeEngine fake = new FakeEngine();
        final DeltaWatcher watcher = CoalescingWatcher.open(WatchRequest.of(KeyRange.prefix("/k/")), fake::watch, fake::listAndWatch);
        fake.listener.onEvents(new Batch(event(EventType.PUT, "/k/old", "x", 3)));
        fake.listener.onCancelled(new WatchCancellation(CancelReason.LAPPED, 5, null, "lapped"));
        // The new watch delivers a change after the listing before the listing is merged.
        fake.onListed = listener -> listener.onEvents(new Batch(event(EventType.DELETE, "/k/a", "", 11)));
        fake.snapshot = new RangeResult(10, List.of(kv("/k/a", "1", 4), kv("/k/b", "2", 6)), false);

        final DeltaBatch batch = watcher.next(PATIENCE);

        assertTrue(batch.isReset(), batch.toString());
        assertEquals(10, batch.completeRevision());
        final ClientState client = new ClientState();
        client.state.put("/k/old", "x");
        client.apply(batch);
        assertEquals(Map.of("/k/b", "2"), client.state, "the reset drops /k/old; the newer delete of /k/a wins");
        assertNull(batch.cancellation());
    }

    /**
     * A relist that finds the engine closed ends the delta watcher with ENGINE_CLOSED, as the
     * push watch would have: a client must not read REVISION_UNAVAILABLE (retry from a newer
     * revision) from an engine that is gone. Found on main 817b6a0: REVISION_UNAVAILABLE.
     */
    @Test
    void aRelistThatFindsTheEngineClosedEndsTheWatcherEngineClosed() throws InterruptedException
    {
        final FakeEngine fake = new FakeEngine()
        {
            @Override
            ListWatch<Watcher> listAndWatch(final WatchRequest request, final WatchListener listener)
            {
                throw new io.ringwatch.engine.errors.EngineClosedException("the engine is closed");
            }
        };
        final DeltaWatcher watcher = CoalescingWatcher.open(WatchRequest.of(KeyRange.prefix("/k/")), fake::watch, fake::listAndWatch);
        fake.listener.onCancelled(new WatchCancellation(CancelReason.LAPPED, 5, null, "lapped"));

        final DeltaBatch batch = watcher.next(PATIENCE);

        assertEquals(CancelReason.ENGINE_CLOSED, batch.cancellation().reason(), batch.toString());
        assertFalse(batch.isReset());
    }

    @Test
    void aCompactedStartEndsTheWatcherInsteadOfListingAgain() throws InterruptedException
    {
        engine = RingWatch.open();
        for (int i = 0; i < 10; i++)
        {
            engine.put("/k/a", "v" + i);
        }
        engine.compact(8);
        final DeltaWatcher watcher = engine.watchDeltas(WatchRequest.of(KeyRange.prefix("/k/")).startRevision(2));

        final DeltaBatch batch = watcher.next(PATIENCE);

        assertEquals(CancelReason.COMPACTED, batch.cancellation().reason());
        assertEquals(8, batch.cancellation().compactRevision());
        assertFalse(batch.isReset());
    }

    @Test
    void cancelEndsTheWatchAndWakesAWaitingCall() throws InterruptedException
    {
        engine = RingWatch.open();
        final DeltaWatcher watcher = engine.watchDeltas(WatchRequest.of(KeyRange.prefix("/k/")));
        final Thread canceller = new Thread(() ->
        {
            sleepQuietly(50);
            watcher.cancel();
        });
        canceller.start();

        final DeltaBatch batch = watcher.next(PATIENCE);

        canceller.join();
        assertEquals(CancelReason.CANCELLED_BY_CLIENT, batch.cancellation().reason());
        assertTrue(watcher.isCancelled());
        engine.put("/k/a", "after");
        assertTrue(watcher.next(Duration.ZERO).deltas().isEmpty(), "nothing after the cancel");
    }

    /**
     * {@code next} returns once the complete revision has advanced past what the client was last
     * handed, even when it advanced between two calls (the progress the previous call asked for,
     * answered after that call returned with its deltas). Found on main 817b6a0: the call compared
     * with the complete revision at its own start, so it waited out its whole timeout, about half
     * the runs of everyChangeOfAKeyCollapsesIntoItsLatestState (20 s each). The 60 s timeout turns
     * the 10-minute wait into a failure.
     */
    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aCompleteRevisionThatAdvancedBetweenCallsIsHandedOverAtOnce() throws InterruptedException
    {
        final FakeEngine fake = new FakeEngine();
        final DeltaWatcher watcher = CoalescingWatcher.open(WatchRequest.of(KeyRange.prefix("/k/")), fake::watch, fake::listAndWatch);
        fake.listener.onEvents(new Batch(event(EventType.PUT, "/k/a", "1", 5)));
        final DeltaBatch first = watcher.next(Duration.ofMinutes(10));
        assertEquals(1, first.deltas().size());
        assertEquals(4, first.completeRevision());
        fake.listener.onProgress(7);

        final DeltaBatch second = watcher.next(Duration.ofMinutes(10));

        assertTrue(second.deltas().isEmpty());
        assertEquals(7, second.completeRevision());
        assertNull(second.cancellation());
    }

    /**
     * A push watch that falls behind and is then compacted past (etcd cancels such unsynced
     * watchers COMPACTED) has lost its events like a lapped one: the delta watcher, which never
     * ends for want of history, lists the range again and hands over a reset. The watch falls
     * behind deterministically: the one delivery thread is held in another watch's listener while
     * its queue of 4 overflows, then the engine compacts. Found on main 817b6a0: the delta watcher
     * ended with COMPACTED, which only a start revision before the compaction should do.
     */
    @Test
    void aWatchCompactedAfterItFellBehindIsListedAgainAndHandedOverAsAReset() throws InterruptedException
    {
        engine = RingWatch.open(RingWatchConfig.builder().deliveryThreads(1).maxDeliveryThreads(1).watcherQueueDepth(4)
            .slowListenerTimeout(Duration.ofMinutes(5)).build());
        final java.util.concurrent.CountDownLatch held = new java.util.concurrent.CountDownLatch(1);
        final java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        final Watcher blocker = engine.watch(WatchRequest.of(KeyRange.key("/block")), events ->
        {
            held.countDown();
            try
            {
                release.await();
            }
            catch (final InterruptedException e)
            {
                Thread.currentThread().interrupt();
            }
        });
        engine.put("/block", "x");
        assertTrue(held.await(PATIENCE.toSeconds(), java.util.concurrent.TimeUnit.SECONDS));
        final DeltaWatcher watcher = engine.watchDeltas(WatchRequest.of(KeyRange.prefix("/k/")));
        for (int i = 0; i < 10; i++)
        {
            engine.put("/k/" + (i % 3), "v" + i);
        }
        engine.compact(engine.currentRevision());
        release.countDown();

        final ClientState client = new ClientState();
        DeltaBatch batch;
        do
        {
            batch = watcher.next(PATIENCE);
            assertNull(batch.cancellation(), batch.toString());
            client.apply(batch);
        }
        while (!batch.isReset());
        assertEquals(rangeOf(engine, "/k/"), client.state);
        engine.put("/k/after", "1");
        while (!client.state.containsKey("/k/after"))
        {
            client.apply(watcher.next(PATIENCE));
        }
        assertEquals(rangeOf(engine, "/k/"), client.state);
        blocker.cancel();
    }

    /**
     * {@link io.ringwatch.engine.watch.Watcher#cancel()} is idempotent. Found on main 817b6a0: the
     * coalescing watcher's second cancel (a client's cancel, then its close) threw
     * NullPointerException.
     */
    @Test
    void aSecondCancelOrACloseAfterCancelDoesNothing() throws InterruptedException
    {
        engine = RingWatch.open();
        final DeltaWatcher watcher = engine.watchDeltas(WatchRequest.of(KeyRange.prefix("/k/")));
        watcher.cancel();
        watcher.cancel();
        watcher.close();
        assertEquals(CancelReason.CANCELLED_BY_CLIENT, watcher.cancellation().reason());
        assertEquals(CancelReason.CANCELLED_BY_CLIENT, watcher.next(Duration.ZERO).cancellation().reason());
    }

    private static Map<String, String> rangeOf(final RingWatch engine, final String prefix)
    {
        final Map<String, String> state = new TreeMap<>();
        for (final KeyValue kv : engine.range(KeyRange.prefix(prefix), 0).kvs())
        {
            state.put(kv.keyAsString(), kv.valueAsString());
        }
        return state;
    }

    private static void sleepQuietly(final long millis)
    {
        try
        {
            Thread.sleep(millis);
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
    }

    private static KeyValue kv(final String key, final String value, final long revision)
    {
        return new KeyValue(key.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8), revision, revision, 1);
    }

    private static WatchEvent event(final EventType type, final String key, final String value, final long revision)
    {
        return new FixedEvent(type, kv(key, value, revision));
    }

    /** What a client of the delta watcher holds: the state it rebuilt from the deltas. */
    private static final class ClientState
    {
        final Map<String, String> state = new TreeMap<>();
        final Map<String, Long> revisions = new TreeMap<>();
        final Map<String, Long> removedAt = new TreeMap<>();
        long complete;

        void apply(final DeltaBatch batch)
        {
            assertNull(batch.cancellation(), batch.toString());
            final Set<String> seen = new HashSet<>();
            if (batch.isReset())
            {
                state.clear();
            }
            for (final Delta delta : batch.deltas())
            {
                final String key = delta.keyAsString();
                assertTrue(seen.add(key), "one delta per key in a batch: " + batch.deltas());
                if (delta.isRemoved())
                {
                    state.remove(key);
                    removedAt.put(key, delta.revision());
                }
                else
                {
                    state.put(key, delta.kv().valueAsString());
                    revisions.put(key, delta.revision());
                }
            }
            assertTrue(batch.completeRevision() >= complete, "the complete revision never goes back");
            complete = batch.completeRevision();
        }

        long revisionOf(final String key)
        {
            return revisions.get(key);
        }
    }

    /** Sources that let a test play the engine's part. */
    private static class FakeEngine
    {
        WatchListener listener;
        RangeResult snapshot;
        Consumer<WatchListener> onListed = listener -> { };

        Watcher watch(final WatchRequest request, final WatchListener listener)
        {
            this.listener = listener;
            return new FakeWatcher(request);
        }

        ListWatch<Watcher> listAndWatch(final WatchRequest request, final WatchListener listener)
        {
            this.listener = listener;
            onListed.accept(listener);
            return new ListWatch<>(snapshot, new FakeWatcher(request));
        }
    }

    private static final class FakeWatcher implements Watcher
    {
        private final WatchRequest request;
        private boolean cancelled;

        FakeWatcher(final WatchRequest request)
        {
            this.request = request;
        }

        @Override
        public long id()
        {
            return 1;
        }

        @Override
        public WatchRequest request()
        {
            return request;
        }

        @Override
        public long startRevision()
        {
            return request.startRevision();
        }

        @Override
        public void cancel()
        {
            cancelled = true;
        }

        @Override
        public boolean isCancelled()
        {
            return cancelled;
        }

        @Override
        public WatchCancellation cancellation()
        {
            return null;
        }

        @Override
        public void requestProgress()
        {
        }
    }

    private static final class Batch implements EventBatch
    {
        private final WatchEvent[] events;

        Batch(final WatchEvent... events)
        {
            this.events = events;
        }

        @Override
        public int size()
        {
            return events.length;
        }

        @Override
        public WatchEvent get(final int index)
        {
            return events[index];
        }
    }

    private static final class FixedEvent implements WatchEvent
    {
        private final EventType type;
        private final KeyValue kv;

        FixedEvent(final EventType type, final KeyValue kv)
        {
            this.type = type;
            this.kv = kv;
        }

        @Override
        public EventType type()
        {
            return type;
        }

        @Override
        public long revision()
        {
            return kv.modRevision();
        }

        @Override
        public DirectBuffer keyBuffer()
        {
            return new UnsafeBuffer(kv.key());
        }

        @Override
        public int keyLength()
        {
            return kv.key().length;
        }

        @Override
        public DirectBuffer valueBuffer()
        {
            return new UnsafeBuffer(kv.value());
        }

        @Override
        public int valueLength()
        {
            return kv.value().length;
        }

        @Override
        public long createRevision()
        {
            return kv.createRevision();
        }

        @Override
        public long modRevision()
        {
            return kv.modRevision();
        }

        @Override
        public long version()
        {
            return kv.version();
        }

        @Override
        public boolean hasPrevKv()
        {
            return false;
        }

        @Override
        public DirectBuffer prevValueBuffer()
        {
            return new UnsafeBuffer(new byte[0]);
        }

        @Override
        public int prevValueLength()
        {
            return 0;
        }

        @Override
        public long prevCreateRevision()
        {
            return 0;
        }

        @Override
        public long prevModRevision()
        {
            return 0;
        }

        @Override
        public long prevVersion()
        {
            return 0;
        }

        @Override
        public long lease()
        {
            return kv.lease();
        }

        @Override
        public long prevLease()
        {
            return 0;
        }

        @Override
        public Event toEvent()
        {
            return new Event(type, kv, null);
        }
    }
}
