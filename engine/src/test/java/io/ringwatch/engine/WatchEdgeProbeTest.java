package io.ringwatch.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;

import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.internal.history.InMemoryJournal;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.RangeResult;
import io.ringwatch.engine.kv.Txn;
import io.ringwatch.engine.secondary.IndexFunction;
import io.ringwatch.engine.watch.CancelReason;
import io.ringwatch.engine.watch.Event;
import io.ringwatch.engine.watch.EventBatch;
import io.ringwatch.engine.watch.EventType;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.WatchCancellation;
import io.ringwatch.engine.watch.WatchListener;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.engine.watch.Watcher;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * Watch edges modelled on etcd's and Kubernetes' known watch failures, each checked against a
 * reference the test builds from its own writes: a revision of thousands of events (a prefix
 * delete) deeper than a watcher's queue arrives whole, a watch from exactly the compaction point
 * or from a future revision starts exactly there, a watcher cancelled from its own listener gets
 * nothing after, and a watch by secondary index whose keys move between index values (in one txn,
 * deleted and re-created, flipping back and forth) keeps a cache equal to {@code byIndex} at every
 * progress notification, while routed and while it reads by cursor.
 */
class WatchEdgeProbeTest
{
    private static final String PREFIX = "/big/";

    /**
     * A prefix delete of 5,000 keys is one revision, deeper than the watchers' queues (64) and the
     * dispatcher's duty cycle (4,096): a push watcher, a never-polled pull watcher and a watch
     * started at that revision each get all 5,000 deletes of it in key order, then the next put.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aRevisionDeeperThanTheQueueArrivesWhole(final boolean persistent)
    {
        final RingWatchConfig.Builder builder = RingWatchConfig.builder().watcherQueueDepth(64).windowCapacity(1 << 15, 1 << 15);
        if (persistent)
        {
            builder.persistence(name -> new InMemoryJournal(1 << 16, false));
        }
        try (RingWatch engine = RingWatch.open(builder.build()))
        {
            final int keys = 5_000;
            for (int i = 0; i < keys; i++)
            {
                engine.put(key(i), "v" + i);
            }
            final RecordingListener push = new RecordingListener();
            engine.watch(WatchRequest.of(KeyRange.prefix(PREFIX)).withPrevKv(), push);
            final PullWatcher pull = engine.watchPull(WatchRequest.of(KeyRange.prefix(PREFIX)));
            final long deleted = engine.delete(KeyRange.prefix(PREFIX)).revision();
            final long after = engine.put(key(7), "again").revision();

            assertWhole(push.awaitEvents(keys + 1), deleted, after, keys, true);
            assertNull(push.cancellation());
            final RecordingListener polled = new RecordingListener();
            RecordingListener.await(() ->
            {
                pull.poll(polled, 100);
                return polled.events().size() >= keys + 1 || polled.cancellation() != null;
            }, "the pull watcher's events");
            assertNull(polled.cancellation());
            assertWhole(polled.events(), deleted, after, keys, false);

            final RecordingListener fromIt = new RecordingListener();
            engine.watch(WatchRequest.of(KeyRange.prefix(PREFIX)).startRevision(deleted), fromIt);
            assertWhole(fromIt.awaitEvents(keys + 1), deleted, after, keys, false);
        }
    }

    /** A watch from exactly the compaction point is allowed and starts there; one before it is COMPACTED with the point. */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aWatchFromTheCompactionPointStartsExactlyThere(final boolean persistent)
    {
        final RingWatchConfig.Builder builder = RingWatchConfig.builder();
        if (persistent)
        {
            builder.persistence(name -> new InMemoryJournal(1 << 12, false));
        }
        try (RingWatch engine = RingWatch.open(builder.build()))
        {
            for (int i = 1; i <= 30; i++)
            {
                engine.put("k" + i % 3, "v" + i);
            }
            engine.compact(20);
            final RecordingListener at = new RecordingListener();
            engine.watch(WatchRequest.of(KeyRange.prefix("k")).startRevision(20).withPrevKv(), at);
            final List<Event> events = at.awaitEvents(11);
            for (int i = 0; i < 11; i++)
            {
                assertEquals(20 + i, events.get(i).revision());
                assertEquals("v" + (20 + i), events.get(i).kv().valueAsString());
                assertEquals("v" + (17 + i), events.get(i).prevKv().valueAsString());
            }
            final RecordingListener before = new RecordingListener();
            engine.watch(WatchRequest.of(KeyRange.prefix("k")).startRevision(19), before);
            final WatchCancellation cancelled = before.awaitCancellation();
            assertEquals(CancelReason.COMPACTED, cancelled.reason());
            assertEquals(20, cancelled.compactRevision());
            assertTrue(before.events().isEmpty());
        }
    }

    /** A watch from a revision not yet written gets nothing before it, then exactly the events from it. */
    @Test
    void aWatchFromAFutureRevisionStartsThere()
    {
        try (RingWatch engine = RingWatch.open())
        {
            engine.put("f", "0");
            final RecordingListener future = new RecordingListener();
            final Watcher watcher = engine.watch(WatchRequest.of(KeyRange.key("f")).startRevision(10), future);
            assertEquals(10, watcher.startRevision());
            for (int i = 1; i <= 20; i++)
            {
                engine.put("f", "" + i);
            }
            final List<Event> events = future.awaitEvents(12);
            for (int i = 0; i < 12; i++)
            {
                assertEquals(10 + i, events.get(i).revision());
            }
            engine.put("f", "end");
            assertEquals(13, future.awaitEvents(13).size());
        }
    }

    /**
     * A listener that cancels its own watcher on its first batch while thousands of events are
     * queued: cancel returns (no wait for its own delivery), nothing is delivered after, and the
     * cancellation comes once, CANCELLED.
     */
    @Test
    void aWatcherCancelledFromItsOwnListenerGetsNothingAfter()
    {
        try (RingWatch engine = RingWatch.open(RingWatchConfig.builder().deliveryBatchSize(16).build()))
        {
            final AtomicReference<Watcher> self = new AtomicReference<>();
            final RecordingListener after = new RecordingListener();
            final List<String> failures = new ArrayList<>();
            final WatchListener listener = new WatchListener()
            {
                private boolean cancelled;

                @Override
                public synchronized void onEvents(final EventBatch events)
                {
                    if (cancelled)
                    {
                        failures.add("a batch of " + events.size() + " after cancel() returned");
                        return;
                    }
                    while (self.get() == null)
                    {
                        Thread.onSpinWait();
                    }
                    self.get().cancel();
                    cancelled = true;
                }

                @Override
                public void onCancelled(final WatchCancellation cancellation)
                {
                    after.onCancelled(cancellation);
                }
            };
            for (int i = 0; i < 2_000; i++)
            {
                engine.put("c" + i, "v");
            }
            self.set(engine.watch(WatchRequest.of(KeyRange.prefix("c")).startRevision(1), listener));
            assertEquals(CancelReason.CANCELLED_BY_CLIENT, after.awaitCancellation().reason());
            engine.put("c0", "later");
            assertTrue(engine.waitForRevision(2_001, Duration.ofSeconds(60)));
            // Let a delivery that would wrongly follow happen before the check.
            final RecordingListener marker = new RecordingListener();
            engine.watch(WatchRequest.of(KeyRange.key("c0")).startRevision(2_001), marker);
            marker.awaitEvents(1);
            synchronized (listener)
            {
                assertEquals(List.of(), failures);
            }
            assertEquals(1, after.cancellations());
        }
    }

    /**
     * The engine closes (from another thread) while one listener is blocked in its call and another
     * has events queued: close returns, the queued watcher gets every event written before the close
     * and then ENGINE_CLOSED once, and the blocked one, once its call returns, gets one cancellation
     * and no events after it.
     */
    @Test
    void closingWhileAListenerBlocksEndsEveryWatcherOnce() throws Exception
    {
        final java.util.concurrent.CountDownLatch entered = new java.util.concurrent.CountDownLatch(1);
        final java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        final List<String> blockedLog = new ArrayList<>();
        final WatchListener blocking = new WatchListener()
        {
            @Override
            public void onEvents(final EventBatch events)
            {
                synchronized (blockedLog)
                {
                    blockedLog.add("events " + events.size());
                }
                entered.countDown();
                try
                {
                    release.await();
                }
                catch (final InterruptedException e)
                {
                    Thread.currentThread().interrupt();
                }
            }

            @Override
            public void onCancelled(final WatchCancellation cancellation)
            {
                synchronized (blockedLog)
                {
                    blockedLog.add("cancelled " + cancellation.reason());
                }
            }
        };
        final RecordingListener queued = new RecordingListener();
        final RingWatch engine = RingWatch.open(RingWatchConfig.builder().slowListenerTimeout(Duration.ofMillis(300)).build());
        try
        {
            engine.watch(WatchRequest.of(KeyRange.prefix("b/")), blocking);
            engine.watch(WatchRequest.of(KeyRange.prefix("b/")), queued);
            for (int i = 0; i < 1_000; i++)
            {
                engine.put("b/" + i % 10, "v" + i);
            }
            assertTrue(entered.await(60, java.util.concurrent.TimeUnit.SECONDS));
        }
        finally
        {
            engine.close();
        }
        assertEquals(CancelReason.ENGINE_CLOSED, queued.awaitCancellation().reason());
        assertEquals(1_000, queued.events().size());
        assertEquals(1, queued.cancellations());
        release.countDown();
        RecordingListener.await(() ->
        {
            synchronized (blockedLog)
            {
                return blockedLog.get(blockedLog.size() - 1).startsWith("cancelled");
            }
        }, "the blocked watcher's cancellation");
        synchronized (blockedLog)
        {
            assertEquals(1, blockedLog.stream().filter(l -> l.startsWith("cancelled")).count(), blockedLog.toString());
        }
    }

    /**
     * Keys move between index values in one txn, are deleted and re-created, and flip back and
     * forth faster than the watcher reads (queues of 4, so it reads by cursor most of the time): a
     * cache kept from the watch's events (a PUT adds, a DELETE removes) equals {@code byIndex} at
     * the revision of every progress notification, and at the end.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void anIndexWatchersCacheEqualsByIndexAtEveryProgress(final boolean persistent)
    {
        final RingWatchConfig.Builder builder = RingWatchConfig.builder().watcherQueueDepth(4);
        if (persistent)
        {
            // A window the writes lap: the watcher reads the log by cursor, running the function there.
            builder.persistence(name -> new InMemoryJournal(1 << 18, false)).windowCapacity(1 << 10, 1 << 10)
                .windowFreshness(Duration.ofNanos(1));
        }
        else
        {
            builder.windowCapacity(1 << 13, 1 << 13);
        }
        try (RingWatch engine = RingWatch.open(builder.build()))
        {
            engine.addIndex("color", IndexFunction.ofStrings(v ->
            {
                final String s = new String(v, StandardCharsets.UTF_8);
                return List.of(s.substring(0, s.indexOf(':')));
            }));
            final Map<Long, Set<String>> redAt = new TreeMap<>();
            final Map<String, String> model = new TreeMap<>();
            final PullWatcher red = engine.watchPull(WatchRequest.byIndex("color", "red"));
            final long seed = System.nanoTime();
            final Random random = new Random(seed);
            final Set<String> cache = new TreeSet<>();
            final List<String> problems = new ArrayList<>();
            final int[] checked = {0};
            final WatchListener apply = new WatchListener()
            {
                @Override
                public void onEvents(final EventBatch events)
                {
                    for (int i = 0; i < events.size(); i++)
                    {
                        final Event event = events.get(i).toEvent();
                        if (event.type() == EventType.PUT)
                        {
                            cache.add(event.kv().keyAsString());
                        }
                        else
                        {
                            cache.remove(event.kv().keyAsString());
                        }
                    }
                }

                @Override
                public void onProgress(final long revision)
                {
                    final Set<String> expected = redAt.get(revision);
                    checked[0] += expected == null ? 0 : 1;
                    if (expected != null && !expected.equals(cache))
                    {
                        problems.add("at " + revision + ": cache " + cache + ", byIndex " + expected);
                    }
                }

                @Override
                public void onCancelled(final WatchCancellation cancellation)
                {
                    problems.add("cancelled " + cancellation);
                }
            };
            long last = 0;
            for (int step = 0; step < 3_000; step++)
            {
                final String a = "k" + random.nextInt(12);
                final String b = "k" + random.nextInt(12);
                final int dice = random.nextInt(10);
                if (dice < 4)
                {
                    last = put(engine, model, a, random.nextBoolean() ? "red" : "blue", step);
                }
                else if (dice < 6 && !a.equals(b))
                {
                    // Two keys swap colours in one revision.
                    final String colorA = model.containsKey(b) ? model.get(b).split(":")[0] : "red";
                    final String colorB = model.containsKey(a) ? model.get(a).split(":")[0] : "blue";
                    last = engine.txn(Txn.of(List.of(), List.of(Op.put(a, colorA + ":" + step), Op.put(b, colorB + ":" + step)),
                        List.of())).revision();
                    model.put(a, colorA + ":" + step);
                    model.put(b, colorB + ":" + step);
                }
                else if (dice < 8)
                {
                    if (model.remove(a) != null)
                    {
                        last = engine.delete(a).revision();
                    }
                }
                else
                {
                    // Deleted and re-created in one revision is not allowed; delete then re-create in the next.
                    if (model.remove(a) != null)
                    {
                        engine.delete(a);
                    }
                    last = put(engine, model, a, "red", step);
                }
                if (step % 7 == 0)
                {
                    final RangeResult byIndex = engine.byIndex("color", "red");
                    assertEquals(last, byIndex.revision());
                    redAt.put(last, reds(byIndex.kvs()));
                    assertEquals(reds(model), redAt.get(last), "byIndex against the model at " + last);
                    red.requestProgress();
                }
                if (random.nextInt(50) == 0)
                {
                    red.poll(apply, 1 + random.nextInt(8));
                }
            }
            final long end = last;
            final long[] progressed = {0};
            final WatchListener drain = new WatchListener()
            {
                @Override
                public void onEvents(final EventBatch events)
                {
                    apply.onEvents(events);
                }

                @Override
                public void onProgress(final long revision)
                {
                    apply.onProgress(revision);
                    progressed[0] = Math.max(progressed[0], revision);
                }

                @Override
                public void onCancelled(final WatchCancellation cancellation)
                {
                    apply.onCancelled(cancellation);
                }
            };
            RecordingListener.await(() ->
            {
                red.requestProgress();
                while (red.poll(drain, 64) > 0)
                {
                    // drain
                }
                return progressed[0] >= end || !problems.isEmpty();
            }, "progress at " + end);
            assertEquals(List.of(), problems, "seed " + seed);
            assertEquals(reds(model), cache, "seed " + seed);
            assertTrue(checked[0] > 0, "no progress notification fell on a revision byIndex was read at");
        }
    }

    private static long put(final RingWatch engine, final Map<String, String> model, final String key, final String color, final int step)
    {
        model.put(key, color + ":" + step);
        return engine.put(key, color + ":" + step).revision();
    }

    private static Set<String> reds(final List<KeyValue> kvs)
    {
        final Set<String> keys = new TreeSet<>();
        kvs.forEach(kv -> keys.add(kv.keyAsString()));
        return keys;
    }

    private static Set<String> reds(final Map<String, String> model)
    {
        final Set<String> keys = new TreeSet<>();
        model.forEach((k, v) -> { if (v.startsWith("red:")) keys.add(k); });
        return keys;
    }

    private static String key(final int i)
    {
        return PREFIX + String.format("%05d", i);
    }

    private static void assertWhole(final List<Event> events, final long deleted, final long after, final int keys, final boolean prevKv)
    {
        assertEquals(keys + 1, events.size());
        for (int i = 0; i < keys; i++)
        {
            final Event event = events.get(i);
            assertEquals(EventType.DELETE, event.type(), "event " + i);
            assertEquals(deleted, event.revision(), "event " + i);
            assertEquals(key(i), event.kv().keyAsString(), "event " + i);
            if (prevKv)
            {
                assertEquals("v" + i, event.prevKv().valueAsString(), "event " + i);
            }
        }
        assertEquals(after, events.get(keys).revision());
        assertEquals("again", events.get(keys).kv().valueAsString());
    }
}
