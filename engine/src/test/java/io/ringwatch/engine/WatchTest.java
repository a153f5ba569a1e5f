package io.ringwatch.engine;

import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.Keys;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.Txn;
import io.ringwatch.engine.watch.CancelReason;
import io.ringwatch.engine.watch.Event;
import io.ringwatch.engine.watch.EventBatch;
import io.ringwatch.engine.watch.EventType;
import io.ringwatch.engine.watch.ListWatch;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.WatchCancellation;
import io.ringwatch.engine.watch.WatchListener;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.engine.watch.WatchResponse;
import io.ringwatch.engine.watch.Watcher;
import org.agrona.concurrent.YieldingIdleStrategy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class WatchTest
{
    private RingWatch engine = RingWatch.open();

    @AfterEach
    void close()
    {
        engine.close();
    }

    @Test
    void aKeyWatcherSeesOnlyItsKeyInRevisionOrderWithEtcdMetadata()
    {
        final RecordingListener listener = new RecordingListener();
        engine.watch(WatchRequest.of(KeyRange.key("a")), listener);
        engine.put("a", "1");
        engine.put("b", "1");
        engine.put("a", "2");
        engine.delete(Keys.utf8("a"));

        final List<Event> events = listener.awaitEvents(3);
        assertEquals(List.of(1L, 3L, 4L), events.stream().map(Event::revision).toList());
        assertEquals(EventType.PUT, events.get(1).type());
        assertEquals(1, events.get(1).kv().createRevision());
        assertEquals(2, events.get(1).kv().version());
        final Event delete = events.get(2);
        assertEquals(EventType.DELETE, delete.type());
        assertEquals(0, delete.kv().version());
        assertEquals(0, delete.kv().value().length);
        assertNull(delete.prevKv(), "prevKv was not asked for");
    }

    @Test
    void prefixRangeAndAllWatchersMatchTheirKeys()
    {
        final RecordingListener prefix = new RecordingListener();
        final RecordingListener range = new RecordingListener();
        final RecordingListener all = new RecordingListener();
        engine.watch(WatchRequest.of(KeyRange.prefix("/p/")), prefix);
        engine.watch(WatchRequest.of(KeyRange.range("b", "d")), range);
        engine.watch(WatchRequest.of(KeyRange.all()), all);
        for (final String key : List.of("/p/1", "/q/1", "a", "b", "c", "d", "/p/2"))
        {
            engine.put(key, "v");
        }
        assertEquals(List.of("/p/1", "/p/2"), keys(prefix.awaitEvents(2)));
        assertEquals(List.of("b", "c"), keys(range.awaitEvents(2)));
        assertEquals(7, all.awaitEvents(7).size());
    }

    @Test
    void filtersDropPutsOrDeletesAndPrevKvCarriesTheReplacedValue()
    {
        final RecordingListener deletesOnly = new RecordingListener();
        final RecordingListener putsWithPrev = new RecordingListener();
        final Watcher deletesWatcher = engine.watch(WatchRequest.of(KeyRange.all()).noPut(), deletesOnly);
        engine.watch(WatchRequest.of(KeyRange.all()).noDelete().withPrevKv(), putsWithPrev);
        engine.put("k", "1");
        engine.put("k", "2");
        engine.delete(Keys.utf8("k"));
        engine.put("k", "3");

        final List<Event> deletes = deletesOnly.awaitEvents(1);
        final List<Event> puts = putsWithPrev.awaitEvents(3);
        assertEquals(EventType.DELETE, deletes.get(0).type());
        assertEquals(List.of(1L, 2L, 4L), puts.stream().map(Event::revision).toList());
        assertNull(puts.get(0).prevKv());
        assertEquals("1", puts.get(1).prevKv().valueAsString());
        assertEquals(1, puts.get(1).prevKv().modRevision());
        assertNull(puts.get(2).prevKv(), "recreated after a delete: nothing replaced");
        engine.put("sync", "x");
        requestProgressUntil(deletesOnly, engine.currentRevision(), engine, deletesWatcher);
        assertEquals(1, deletesOnly.events().size());
    }

    @Test
    void aTransactionsEventsShareItsRevisionAndArriveTogether()
    {
        final RecordingListener listener = new RecordingListener();
        engine.watch(WatchRequest.of(KeyRange.all()), listener);
        engine.txn(Txn.of(List.of(), List.of(Op.put("x", "1"), Op.put("y", "1")), List.of()));
        engine.delete(KeyRange.all());
        final List<Event> events = listener.awaitEvents(4);
        assertEquals(List.of(1L, 1L, 2L, 2L), events.stream().map(Event::revision).toList());
    }

    @Test
    void aWatchFromThePastReplaysHistoryThenContinuesLive()
    {
        engine.put("a", "1");
        engine.put("a", "2");
        engine.put("a", "3");
        final RecordingListener listener = new RecordingListener();
        engine.watch(WatchRequest.of(KeyRange.key("a")).startRevision(2), listener);
        engine.put("a", "4");
        assertEquals(List.of(2L, 3L, 4L), listener.awaitEvents(3).stream().map(Event::revision).toList());
    }

    @Test
    void aWatchFromTheFutureWaitsForItsRevision()
    {
        final RecordingListener listener = new RecordingListener();
        engine.watch(WatchRequest.of(KeyRange.all()).startRevision(3), listener);
        for (int i = 1; i <= 4; i++)
        {
            engine.put("k", "v" + i);
        }
        assertEquals(List.of(3L, 4L), listener.awaitEvents(2).stream().map(Event::revision).toList());
    }

    @Test
    void aWatchFromACompactedRevisionIsCancelledWithTheCompactRevision()
    {
        engine.put("a", "1");
        engine.put("a", "2");
        engine.put("a", "3");
        engine.compact(3);
        final RecordingListener listener = new RecordingListener();
        final Watcher watcher = engine.watch(WatchRequest.of(KeyRange.all()).startRevision(2), listener);
        final WatchCancellation cancellation = listener.awaitCancellation();
        assertEquals(CancelReason.COMPACTED, cancellation.reason());
        assertEquals(3, cancellation.compactRevision());
        assertTrue(watcher.isCancelled());
        assertTrue(listener.events().isEmpty());

        final RecordingListener atCompaction = new RecordingListener();
        engine.watch(WatchRequest.of(KeyRange.all()).startRevision(3), atCompaction);
        assertEquals(3, atCompaction.awaitEvents(1).get(0).revision());
    }

    @Test
    void aWatchOlderThanTheWindowIsCancelledWithTheOldestAvailableRevision()
    {
        engine.close();
        engine = RingWatch.open(RingWatchConfig.builder().windowCapacity(16, 16).windowFreshness(Duration.ofNanos(1)).build());
        for (int i = 0; i < 100; i++)
        {
            engine.put("k", "v" + i);
        }
        final RecordingListener listener = new RecordingListener();
        engine.watch(WatchRequest.of(KeyRange.all()).startRevision(1), listener);
        final WatchCancellation cancellation = listener.awaitCancellation();
        assertEquals(CancelReason.REVISION_UNAVAILABLE, cancellation.reason());
        assertTrue(cancellation.compactRevision() > 1 && cancellation.compactRevision() <= 100,
            "oldest available revision: " + cancellation.compactRevision());
        assertTrue(listener.events().isEmpty());
    }

    @Test
    void progressNotificationsCarryTheRevisionTheWatcherIsCompleteUpTo()
    {
        engine.close();
        engine = RingWatch.open(RingWatchConfig.builder().progressNotifyInterval(Duration.ofMillis(10)).build());
        final RecordingListener periodic = new RecordingListener();
        engine.watch(WatchRequest.of(KeyRange.key("quiet")).withProgressNotify(), periodic);
        engine.put("busy", "1");
        engine.put("busy", "2");
        assertEquals(2, periodic.awaitProgressAtLeast(2));
        assertTrue(periodic.events().isEmpty());

        final RecordingListener onDemand = new RecordingListener();
        final Watcher watcher = engine.watch(WatchRequest.of(KeyRange.key("quiet")), onDemand);
        engine.put("busy", "3");
        requestProgressUntil(onDemand, 3, engine, watcher);
        assertTrue(onDemand.progress().stream().allMatch(r -> r <= engine.currentRevision()));
    }

    @Test
    void cancelEndsTheWatchWithTheReasonAndNoEventFollows()
    {
        final RecordingListener listener = new RecordingListener();
        final Watcher watcher = engine.watch(WatchRequest.of(KeyRange.all()), listener);
        engine.put("a", "1");
        listener.awaitEvents(1);
        watcher.cancel();
        engine.put("a", "2");
        assertEquals(CancelReason.CANCELLED_BY_CLIENT, listener.awaitCancellation().reason());
        final RecordingListener witness = new RecordingListener();
        engine.watch(WatchRequest.of(KeyRange.all()).startRevision(2), witness);
        witness.awaitEvents(1);
        assertEquals(1, listener.events().size());
        assertEquals(CancelReason.CANCELLED_BY_CLIENT, watcher.cancellation().reason());
    }

    @Test
    void aThrowingListenerIsCancelledWithItsExceptionAndOthersCarryOn()
    {
        final IllegalStateException boom = new IllegalStateException("boom");
        final RecordingListener bystander = new RecordingListener();
        final List<WatchCancellation> seen = new ArrayList<>();
        final CountDownLatch cancelled = new CountDownLatch(1);
        engine.watch(WatchRequest.of(KeyRange.all()), new WatchListener()
        {
            @Override
            public void onEvents(final EventBatch events)
            {
                throw boom;
            }

            @Override
            public void onCancelled(final WatchCancellation cancellation)
            {
                seen.add(cancellation);
                cancelled.countDown();
            }
        });
        engine.watch(WatchRequest.of(KeyRange.all()), bystander);
        engine.put("a", "1");
        engine.put("a", "2");
        bystander.awaitEvents(2);
        RecordingListener.await(() -> cancelled.getCount() == 0, "the failing listener's cancellation");
        assertEquals(CancelReason.LISTENER_FAILED, seen.get(0).reason());
        assertSame(boom, seen.get(0).cause());
    }

    @Test
    void aCloseThatEndsAWatcherWhoseQueuedEventsWereOverwrittenStillDeliversItsCancellation() throws Exception
    {
        engine.close();
        // A yielding dispatcher and paced writes: the dispatcher keeps up with the tiny window, only the
        // blocked watcher's queued events are overwritten.
        engine = RingWatch.open(RingWatchConfig.builder().windowCapacity(16, 16).windowFreshness(Duration.ofNanos(1))
            .dispatcherIdleStrategy(YieldingIdleStrategy::new).slowListenerTimeout(Duration.ofSeconds(60)).build());
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final List<WatchCancellation> endings = new ArrayList<>();
        final Watcher watcher = engine.watch(WatchRequest.of(KeyRange.all()), new WatchListener()
        {
            @Override
            public void onEvents(final EventBatch batch)
            {
                entered.countDown();
                try
                {
                    release.await(30, TimeUnit.SECONDS);
                }
                catch (final InterruptedException e)
                {
                    Thread.currentThread().interrupt();
                }
            }

            @Override
            public synchronized void onCancelled(final WatchCancellation cancellation)
            {
                endings.add(cancellation);
                notifyAll();
            }
        });
        engine.put("k", "first");
        assertTrue(entered.await(30, TimeUnit.SECONDS));
        for (int i = 0; i < 40; i++)
        {
            engine.put("k", "v" + i);
            Thread.sleep(1);
        }
        assumeFalse(watcher.isCancelled(), "the dispatcher itself fell a window behind on this machine: " + watcher.cancellation());
        final RingWatch closing = engine;
        final Thread closer = new Thread(closing::close, "closer");
        closer.start();
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!watcher.isCancelled() && System.nanoTime() < deadline)
        {
            Thread.sleep(1);
        }
        assertTrue(watcher.isCancelled(), "close() did not end the watch");
        // A dispatcher that fell a window behind before close ends it as LAPPED, a path that never spun.
        assumeTrue(watcher.cancellation().reason() == CancelReason.ENGINE_CLOSED,
            "the dispatcher itself was lapped on this machine: " + watcher.cancellation());

        // The listener returns to a queue whose events the window has overwritten meanwhile.
        release.countDown();
        closer.join(TimeUnit.SECONDS.toMillis(30));
        assertFalse(closer.isAlive(), "close() did not return");
        assertEquals(1, endings.size(), "the cancellation was not delivered exactly once: " + endings);
        assertEquals(CancelReason.ENGINE_CLOSED, endings.get(0).reason());
    }

    @Test
    void aBlockedListenerIsCancelledAsSlowWhileOthersCarryOnOnTheOnlyOtherDeliveryThread() throws Exception
    {
        engine.close();
        engine = RingWatch.open(RingWatchConfig.builder().deliveryThreads(1).slowListenerTimeout(Duration.ofMillis(100)).build());
        final CountDownLatch release = new CountDownLatch(1);
        final CountDownLatch entered = new CountDownLatch(1);
        final List<WatchCancellation> seen = new ArrayList<>();
        final Watcher blocked = engine.watch(WatchRequest.of(KeyRange.key("block")), new WatchListener()
        {
            @Override
            public void onEvents(final EventBatch events)
            {
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
                synchronized (seen)
                {
                    seen.add(cancellation);
                }
            }
        });
        final RecordingListener bystander = new RecordingListener();
        engine.watch(WatchRequest.of(KeyRange.key("free")), bystander);

        engine.put("block", "1");
        assertTrue(entered.await(20, TimeUnit.SECONDS));
        for (int i = 0; i < 50; i++)
        {
            engine.put("free", "v" + i);
        }
        assertEquals(50, bystander.awaitEvents(50).size(), "the pool started a thread in place of the blocked one");
        // The slow-listener policy cancels it while it is still inside; it hears so once it returns.
        RecordingListener.await(blocked::isCancelled, "the slow-listener cancel");
        release.countDown();
        RecordingListener.await(() ->
        {
            synchronized (seen)
            {
                return !seen.isEmpty();
            }
        }, "the blocked listener's cancellation");
        assertEquals(CancelReason.SLOW_LISTENER, seen.get(0).reason());
    }

    @Test
    void aWatcherThatNeverDrainsIsNotCancelledWhileTheWindowHoldsItsEvents() throws Exception
    {
        engine.close();
        engine = RingWatch.open(RingWatchConfig.builder().watcherQueueDepth(16).build());
        final PullWatcher idle = engine.watchPull(WatchRequest.of(KeyRange.all()));
        for (int i = 0; i < 100; i++)
        {
            engine.put("k", "v" + i);
        }
        assertEquals(100, engine.currentRevision());
        final List<Event> events = new ArrayList<>();
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (events.size() < 100 && System.nanoTime() < deadline)
        {
            final WatchResponse response = idle.next(Duration.ofMillis(100));
            assertNull(response.cancellation());
            events.addAll(response.events());
        }
        assertEquals(100, events.size());
        for (int i = 0; i < 100; i++)
        {
            assertEquals(i + 1, events.get(i).revision());
        }
        assertFalse(idle.isCancelled());
    }

    @Test
    void aWatcherTheWindowLappedIsCancelledWithARevisionItCanResumeFrom() throws Exception
    {
        engine.close();
        engine = RingWatch.open(RingWatchConfig.builder().windowCapacity(16, 16).watcherQueueDepth(4).build());
        final PullWatcher idle = engine.watchPull(WatchRequest.of(KeyRange.all()));
        for (int i = 0; i < 100; i++)
        {
            engine.put("k", "v" + i);
        }
        final WatchResponse lapped = idle.next(Duration.ofSeconds(30));
        assertTrue(lapped.events().size() < 100, "got " + lapped.events().size());
        final WatchCancellation cancellation = lapped.cancellation();
        assertEquals(CancelReason.REVISION_UNAVAILABLE, cancellation.reason(), cancellation.toString());
        final long resumeAt = cancellation.compactRevision();
        assertTrue(resumeAt > 1 && resumeAt <= 100, "resume at " + resumeAt);

        final PullWatcher resumed = engine.watchPull(WatchRequest.of(KeyRange.all()).startRevision(resumeAt));
        final List<Event> events = new ArrayList<>();
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (events.size() < 101 - resumeAt && System.nanoTime() < deadline)
        {
            final WatchResponse response = resumed.next(Duration.ofMillis(100));
            assertNull(response.cancellation());
            events.addAll(response.events());
        }
        assertEquals(101 - resumeAt, events.size());
        assertEquals(resumeAt, events.get(0).revision());
        assertEquals(100, events.get(events.size() - 1).revision());
    }

    @Test
    void aPullWatcherPollsAndBlocksForItsEvents() throws Exception
    {
        final PullWatcher watcher = engine.watchPull(WatchRequest.of(KeyRange.prefix("q/")));
        assertTrue(watcher.next(Duration.ofMillis(10)).isEmpty());
        engine.put("q/1", "a");
        engine.put("x", "a");
        engine.put("q/2", "b");
        final List<Event> events = new ArrayList<>();
        while (events.size() < 2)
        {
            final WatchResponse response = watcher.next(RecordingListener.PATIENCE);
            events.addAll(response.events());
        }
        assertEquals(List.of("q/1", "q/2"), keys(events));

        engine.put("q/3", "c");
        final RecordingListener sink = new RecordingListener();
        RecordingListener.await(() -> watcher.poll(sink, 10) > 0 || !sink.events().isEmpty(), "a polled event");
        assertEquals(List.of("q/3"), keys(sink.events()));
        watcher.cancel();
        final WatchResponse last = watcher.next(Duration.ofSeconds(5));
        assertEquals(CancelReason.CANCELLED_BY_CLIENT, last.cancellation().reason());
    }

    @Test
    void listThenWatchHasNoGapAndNoDuplicateWhileWritesContinue() throws Exception
    {
        final Thread writer = new Thread(() ->
        {
            for (int i = 0; i < 2000; i++)
            {
                engine.put("k" + (i % 50), "v" + i);
            }
        });
        writer.start();
        while (engine.currentRevision() < 200)
        {
            Thread.onSpinWait();
        }
        final RecordingListener listener = new RecordingListener();
        final ListWatch<Watcher> listWatch = engine.listAndWatch(WatchRequest.of(KeyRange.prefix("k")), listener);
        writer.join();
        final long snapshotRevision = listWatch.snapshot().revision();
        final long expected = engine.currentRevision() - snapshotRevision;
        final List<Event> events = listener.awaitEvents((int)expected);
        for (int i = 0; i < events.size(); i++)
        {
            assertEquals(snapshotRevision + 1 + i, events.get(i).revision(), "no gap, no duplicate after the snapshot");
        }
        assertEquals(50, listWatch.snapshot().kvs().size());
        listWatch.snapshot().kvs().forEach(kv -> assertTrue(kv.modRevision() <= snapshotRevision));
    }

    @Test
    void closeEndsEveryWatchWithEngineClosed()
    {
        final RecordingListener listener = new RecordingListener();
        final PullWatcher pull = engine.watchPull(WatchRequest.of(KeyRange.all()));
        engine.watch(WatchRequest.of(KeyRange.all()), listener);
        engine.put("a", "1");
        engine.close();
        assertEquals(CancelReason.ENGINE_CLOSED, listener.awaitCancellation().reason());
        assertEquals(1, listener.events().size(), "what was written before close is delivered");
        RecordingListener.await(pull::isCancelled, "the pull watcher's cancellation");
        assertFalse(listener.events().isEmpty());
    }

    private static List<String> keys(final List<Event> events)
    {
        return events.stream().map(e -> e.kv().keyAsString()).toList();
    }

    private static void requestProgressUntil(final RecordingListener listener, final long revision, final RingWatch engine,
        final Watcher... watchers)
    {
        RecordingListener.await(() ->
        {
            for (final Watcher watcher : watchers)
            {
                watcher.requestProgress();
            }
            return listener.progress().stream().anyMatch(r -> r >= revision);
        }, "progress >= " + revision);
    }
}
