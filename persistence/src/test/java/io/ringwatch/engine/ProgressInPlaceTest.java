package io.ringwatch.engine;

import io.ringwatch.engine.config.RingWatchConfig;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.watch.Event;
import io.ringwatch.engine.watch.EventBatch;
import io.ringwatch.engine.watch.EventType;
import io.ringwatch.engine.watch.ProgressMark;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.WatchCancellation;
import io.ringwatch.engine.watch.WatchEvent;
import io.ringwatch.engine.watch.WatchListener;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.engine.watch.WatchResponse;
import io.ringwatch.engine.watch.Watcher;
import io.ringwatch.persistence.LogConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pull watcher's {@code next()} keeps each progress notification where it fell among the events
 * ({@link WatchResponse#progressMarks()}), and no watcher, push or pull, sees a progress revision
 * before an event it covers, even when a burst outgrows the window, the watcher queues and the
 * delivery batches and the watchers read the revision log to catch up.
 */
class ProgressInPlaceTest
{
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    @Test
    void nextReportsAProgressNotificationAtItsPlaceAmongTheEvents() throws Exception
    {
        // One dispatcher: its commands are taken in order, so once the probe's progress arrives the
        // watcher's own request (made first) has been answered too.
        try (RingWatch engine = RingWatch.open(RingWatchConfig.builder().dispatcherThreads(1).build()))
        {
            final WatchRequest request = WatchRequest.of(KeyRange.prefix("/a/")).startRevision(1);
            final PullWatcher watcher = engine.watchPull(request);
            final Probe probe = new Probe(engine.watchPull(request));
            engine.put("/a/1", "x");
            engine.put("/a/2", "x");
            engine.put("/a/3", "x");
            probe.awaitEvent(3);
            watcher.requestProgress();
            probe.pull.requestProgress();
            probe.awaitProgress(3);
            engine.put("/a/4", "x");
            engine.put("/a/5", "x");
            probe.awaitEvent(5);

            final WatchResponse response = watcher.next(Duration.ZERO);

            assertEquals(List.of(1L, 2L, 3L, 4L, 5L), response.events().stream().map(Event::revision).toList());
            assertEquals(List.of(new ProgressMark(3, 3)), response.progressMarks(), response.toString());
            assertEquals(3, response.progressRevision());
        }
    }

    @Test
    void aResponseRefusesMarksBeyondItsEventsOrGoingBack()
    {
        final Event event = new Event(EventType.PUT, new KeyValue("/k".getBytes(StandardCharsets.UTF_8), new byte[0], 1, 1, 1), null);
        assertThrows(IllegalArgumentException.class, () -> new WatchResponse(List.of(event), List.of(new ProgressMark(2, 1)), null));
        assertThrows(IllegalArgumentException.class,
            () -> new WatchResponse(List.of(event), List.of(new ProgressMark(1, 2), new ProgressMark(0, 3)), null));
        assertThrows(IllegalArgumentException.class,
            () -> new WatchResponse(List.of(event), List.of(new ProgressMark(0, 3), new ProgressMark(1, 2)), null));
        assertThrows(IllegalArgumentException.class, () -> new ProgressMark(0, -1));
        assertEquals(List.of(new ProgressMark(1, 7)), new WatchResponse(List.of(event), 7, null).progressMarks());
    }

    @Test
    void aResponseReadInOrderGivesTheRunsOfEventsBetweenItsMarks()
    {
        final List<Event> events = new ArrayList<>();
        for (long revision = 1; revision <= 4; revision++)
        {
            events.add(new Event(EventType.PUT, new KeyValue(("/k" + revision).getBytes(StandardCharsets.UTF_8), new byte[0],
                revision, revision, 1), null));
        }
        final WatchResponse response = new WatchResponse(events,
            List.of(new ProgressMark(0, 0), new ProgressMark(2, 2), new ProgressMark(2, 2), new ProgressMark(4, 4)), null);
        final List<String> read = new ArrayList<>();
        response.inOrder(run -> read.add("events " + run.stream().map(Event::revision).toList()), revision -> read.add("progress " + revision));
        assertEquals(List.of("progress 0", "events [1, 2]", "progress 2", "progress 2", "events [3, 4]", "progress 4"), read);
    }

    @Test
    void noProgressPrecedesAnEventItCoversThroughABurstLargerThanEveryBuffer() throws Exception
    {
        // A window of 1,024 events, watcher queues of 4 and a revision of 3,000 deletes: the
        // watchers are lapped, read the log to catch up and rejoin, with progress asked all along.
        final RingWatchConfig config = RingWatchConfig.builder()
            .windowCapacity(1024, 1024)
            .windowFreshness(Duration.ofNanos(1))
            .watcherQueueDepth(4)
            .progressNotifyInterval(Duration.ofMillis(1))
            .persistence(LogConfig.builder(dir).durability(LogConfig.Durability.ASYNC).build())
            .build();
        try (RingWatch engine = RingWatch.open(config))
        {
            final WatchRequest request = WatchRequest.of(KeyRange.prefix("/b/")).startRevision(1).withProgressNotify();
            final Log pushed = new Log("push");
            final Log nexted = new Log("next");
            final List<Watcher> watchers = new ArrayList<>();
            watchers.add(engine.watch(request, pushed));
            final PullWatcher pull = engine.watchPull(request);
            watchers.add(pull);
            final AtomicBoolean stop = new AtomicBoolean();
            final Thread reader = new Thread(() ->
            {
                try
                {
                    while (!stop.get())
                    {
                        nexted.record(pull.next(Duration.ofMillis(5)));
                    }
                }
                catch (final InterruptedException e)
                {
                    Thread.currentThread().interrupt();
                }
            });
            final Thread requester = new Thread(() ->
            {
                while (!stop.get())
                {
                    watchers.forEach(Watcher::requestProgress);
                    LockSupport.parkNanos(50_000);
                }
            });
            reader.start();
            requester.start();

            final List<String> reference = new ArrayList<>();
            final List<CompletableFuture<String>> inFlight = new ArrayList<>();
            for (int i = 0; i < 12_000; i++)
            {
                final String key = String.format("/b/%05d", i % 3_000);
                inFlight.add(engine.writeAsync(Op.put(key, "v" + i)).thenApply(r -> r.revision() + " PUT " + key));
                if (inFlight.size() == 256)
                {
                    inFlight.forEach(write -> reference.add(write.join()));
                    inFlight.clear();
                }
            }
            inFlight.forEach(write -> reference.add(write.join()));
            final long deleted = engine.delete(KeyRange.prefix("/b/")).revision();
            for (int i = 0; i < 3_000; i++)
            {
                reference.add(deleted + " DELETE " + String.format("/b/%05d", i));
            }

            final long deadline = System.nanoTime() + PATIENCE.toNanos();
            for (final Log log : List.of(pushed, nexted))
            {
                while (!log.hasProgressAtLeast(deleted) && System.nanoTime() < deadline)
                {
                    Thread.sleep(5);
                }
            }
            stop.set(true);
            reader.join(TimeUnit.SECONDS.toMillis(10));
            requester.join(TimeUnit.SECONDS.toMillis(10));
            pushed.check(reference, deleted);
            nexted.check(reference, deleted);
        }
    }

    /** A pull watcher polled by the test thread, to see what the dispatcher has routed. */
    private static final class Probe implements WatchListener
    {
        private final PullWatcher pull;
        private long lastEvent;
        private long lastProgress;

        Probe(final PullWatcher pull)
        {
            this.pull = pull;
        }

        void awaitEvent(final long revision)
        {
            final long deadline = System.nanoTime() + PATIENCE.toNanos();
            while (lastEvent < revision && System.nanoTime() < deadline)
            {
                pull.poll(this, 100);
                LockSupport.parkNanos(100_000);
            }
            assertEquals(revision, lastEvent, "the probe saw revision " + revision);
        }

        void awaitProgress(final long revision)
        {
            final long deadline = System.nanoTime() + PATIENCE.toNanos();
            while (lastProgress < revision && System.nanoTime() < deadline)
            {
                pull.poll(this, 100);
                LockSupport.parkNanos(100_000);
            }
            assertEquals(revision, lastProgress, "the probe's progress");
        }

        @Override
        public void onEvents(final EventBatch batch)
        {
            for (final WatchEvent event : batch)
            {
                lastEvent = event.revision();
            }
        }

        @Override
        public void onProgress(final long revision)
        {
            lastProgress = revision;
        }

        @Override
        public void onCancelled(final WatchCancellation cancellation)
        {
        }
    }

    /** What one watcher received, in order: events as "revision TYPE key", progress as revisions. */
    private static final class Log implements WatchListener
    {
        private final String name;
        private final List<Object> entries = new ArrayList<>();
        private long lastProgress;
        private WatchCancellation cancellation;

        Log(final String name)
        {
            this.name = name;
        }

        @Override
        public synchronized void onEvents(final EventBatch batch)
        {
            for (final WatchEvent event : batch)
            {
                entries.add(event.revision() + " " + event.type() + " " + new String(event.toEvent().kv().key(), StandardCharsets.UTF_8));
            }
        }

        @Override
        public synchronized void onProgress(final long revision)
        {
            entries.add(revision);
            lastProgress = revision;
        }

        @Override
        public synchronized void onCancelled(final WatchCancellation cancellation)
        {
            this.cancellation = cancellation;
        }

        /** A response read in order: the events up to each mark, the mark, the rest. */
        synchronized void record(final WatchResponse response)
        {
            response.inOrder(run -> run.forEach(this::add), this::onProgress);
            if (response.cancellation() != null)
            {
                cancellation = response.cancellation();
            }
        }

        synchronized boolean hasProgressAtLeast(final long revision)
        {
            return lastProgress >= revision || cancellation != null;
        }

        synchronized void check(final List<String> reference, final long last)
        {
            assertNull(cancellation, name + " was cancelled");
            final List<String> events = new ArrayList<>();
            long previousProgress = 0;
            int progressCount = 0;
            for (final Object entry : entries)
            {
                if (entry instanceof String)
                {
                    events.add((String)entry);
                    continue;
                }
                final long progress = (Long)entry;
                progressCount++;
                assertTrue(progress >= previousProgress, name + ": progress " + progress + " after " + previousProgress);
                previousProgress = progress;
                final long owed = reference.stream().filter(e -> revisionOf(e) <= progress).count();
                final long seen = events.stream().filter(e -> revisionOf(e) <= progress).count();
                assertEquals(owed, seen, name + ": progress " + progress + " came after " + seen + " of the " + owed +
                    " events it covers");
            }
            assertEquals(new TreeSet<>(reference), new TreeSet<>(events), name + ": the events differ");
            assertEquals(reference.size(), events.size(), name + ": events delivered twice");
            for (int i = 1; i < events.size(); i++)
            {
                assertTrue(revisionOf(events.get(i)) >= revisionOf(events.get(i - 1)), name + ": out of order at " + i);
            }
            assertTrue(previousProgress >= last, name + ": progress reached " + previousProgress + ", not " + last);
            assertTrue(progressCount > 1, name + ": " + progressCount + " progress notifications");
        }

        private void add(final Event event)
        {
            entries.add(event.revision() + " " + event.type() + " " + new String(event.kv().key(), StandardCharsets.UTF_8));
        }

        private static long revisionOf(final String event)
        {
            return Long.parseLong(event.substring(0, event.indexOf(' ')));
        }
    }
}
