package io.ringwatch.engine.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.WriteResult;
import io.ringwatch.engine.watch.Event;
import io.ringwatch.engine.watch.EventBatch;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.WatchCancellation;
import io.ringwatch.engine.watch.WatchListener;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.engine.watch.WatchResponse;
import io.ringwatch.engine.watch.Watcher;
import io.ringwatch.engine.watch.EventType;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 11, "What was seen" item 0: a progress notification must never run ahead of an event it
 * covers (etcd#15220, etcd#17507). A progress revision R means every event of every revision up
 * to R has been delivered to this watcher. The old code sent progress 5111 after only 4,096 of
 * the 5,000 delete events of one prefix delete (a dispatcher's duty cycle split the revision),
 * and each {@code requestProgress} queued its own marker, so calling it often cancelled the
 * watcher OVERFLOWED.
 */
class ProgressNeverAheadScenarioTest
{
    private static final int KEYS = Scenario.LONG ? 20_000 : 5_000;

    /** How a new user reads a watch. */
    enum Kind
    {
        PUSH, POLL, NEXT
    }

    static Stream<Arguments> engineAndWatcherKinds()
    {
        final List<Arguments> cases = new ArrayList<>();
        for (final Scenario.Mode mode : Scenario.Mode.values())
        {
            for (final Kind kind : Kind.values())
            {
                cases.add(Arguments.of(mode, kind));
            }
        }
        return cases.stream();
    }

    /**
     * Issue 11 item 0: 5,000 puts under /p/, then ONE prefix delete of all of them, periodic
     * progress every 1 ms; no progress the watcher receives may be at or past the delete's
     * revision before all 5,000 delete events (nor past any put before that put's event).
     */
    @ParameterizedTest(name = "{0} engine, {1} watcher")
    @MethodSource("engineAndWatcherKinds")
    void noProgressRevisionRunsAheadOfTheEventsOfAPrefixDelete(final Scenario.Mode mode, final Kind kind,
        @TempDir final Path dir) throws Exception
    {
        try (RingWatch engine = RingWatch.open(mode.builder(dir).progressNotifyInterval(Duration.ofMillis(1)).build()))
        {
            final Audit audit = new Audit();
            final WatchRequest request = WatchRequest.of(KeyRange.prefix("/p/")).withProgressNotify();
            try (Reader reader = Reader.start(engine, kind, request, audit))
            {
                final List<CompletableFuture<WriteResult>> puts = new ArrayList<>(KEYS);
                for (int i = 0; i < KEYS; i++)
                {
                    puts.add(engine.writeAsync(Op.put(key(i), "v" + i)));
                }
                final long[] putRevisions = new long[KEYS];
                for (int i = 0; i < KEYS; i++)
                {
                    putRevisions[i] = puts.get(i).join().revision();
                }
                final WriteResult delete = engine.delete(KeyRange.prefix("/p/"));
                assertEquals(KEYS, delete.deleted());
                final long deleteRevision = delete.revision();

                Scenario.await(() -> audit.events() >= 2 * KEYS && audit.maxProgress() >= deleteRevision,
                    "all " + 2 * KEYS + " events and a progress notification at the delete's revision " + deleteRevision
                        + " (" + audit + ")");
                assertNull(audit.cancellation(), "the watcher was cancelled");

                final List<Event> events = audit.copy();
                assertEquals(2 * KEYS, events.size(), "no duplicate");
                for (int i = 0; i < KEYS; i++)
                {
                    assertEquals(EventType.PUT, events.get(i).type());
                    assertEquals(key(i), events.get(i).kv().keyAsString());
                    assertEquals(putRevisions[i], events.get(i).revision());
                    final Event deleted = events.get(KEYS + i);
                    assertEquals(EventType.DELETE, deleted.type());
                    assertEquals(key(i), deleted.kv().keyAsString(), "delete events in key order");
                    assertEquals(deleteRevision, deleted.revision());
                }
                // Every progress notification, checked against the events delivered before it.
                for (final long[] seen : audit.progressSeen())
                {
                    final long revision = seen[0];
                    final long owed = owedUpTo(revision, putRevisions, deleteRevision);
                    assertTrue(seen[1] >= owed, "progress " + revision + " arrived after only " + seen[1] + " events, but "
                        + owed + " events have a revision <= " + revision + " (delete at " + deleteRevision + ")");
                }
                assertTrue(audit.progressSeen().size() > 0, "no progress notification was checked");
                assertEquals(List.of(), audit.behind(), "progress behind an event delivered before it");
            }
        }
    }

    /**
     * Issue 11 item 0, second part: a client calling {@code requestProgress} in a tight loop
     * (100,000 times) while events flow; the requests must collapse, the watcher must not be
     * cancelled, must get every event, and no progress may run ahead of an event.
     */
    @ParameterizedTest(name = "{0} watcher")
    @EnumSource(Kind.class)
    void aTightLoopOfProgressRequestsNeverCancelsTheWatcher(final Kind kind) throws Exception
    {
        final int writes = 5_000;
        try (RingWatch engine = RingWatch.open())
        {
            final Audit audit = new Audit();
            final WatchRequest request = WatchRequest.of(KeyRange.prefix("/p/"));
            // A pull watcher is not read while the requests come, as a busy client would.
            final Watcher watcher = kind == Kind.PUSH ? engine.watch(request, audit) : engine.watchPull(request);
            final AtomicBoolean writing = new AtomicBoolean(true);
            final long[] putRevisions = new long[writes];
            final Thread writer = new Thread(() ->
            {
                for (int i = 0; i < writes; i++)
                {
                    putRevisions[i] = engine.put(key(i), "v" + i).revision();
                }
                writing.set(false);
            }, "writer");
            writer.start();
            int requests = 0;
            while (requests < 100_000 || writing.get())
            {
                watcher.requestProgress();
                requests++;
            }
            writer.join();
            assertNull(watcher.cancellation(), "cancelled after " + requests + " progress requests");
            if (kind == Kind.PUSH)
            {
                Scenario.await(() -> audit.events() >= writes || audit.cancellation() != null, "every event");
            }
            else
            {
                try (Reader reader = Reader.drain((PullWatcher)watcher, kind, audit))
                {
                    Scenario.await(() -> audit.events() >= writes || audit.cancellation() != null, "every event");
                }
            }
            assertNull(audit.cancellation(), "cancelled after " + requests + " progress requests");
            assertEquals(List.of(), audit.behind(), "progress behind an event delivered before it");
            assertEquals(writes, audit.events());
            for (final long[] seen : audit.progressSeen())
            {
                final long owed = owedUpTo(seen[0], putRevisions, Long.MAX_VALUE);
                assertTrue(seen[1] >= owed, "progress " + seen[0] + " after only " + seen[1] + " of " + owed + " events");
            }
            // Collapsed requests are answered in order: a progress revision never goes back.
            long previous = 0;
            for (final long[] seen : audit.progressSeen())
            {
                assertTrue(seen[0] >= previous, "progress " + seen[0] + " after progress " + previous);
                previous = seen[0];
            }
            watcher.cancel();
        }
    }

    /** Liveness check of the collapsed request: after the loop one more request is answered. */
    @Test
    void aRequestAfterATightLoopIsStillAnswered() throws Exception
    {
        try (RingWatch engine = RingWatch.open())
        {
            final Audit audit = new Audit();
            final Watcher watcher = engine.watch(WatchRequest.of(KeyRange.prefix("/p/")), audit);
            for (int i = 0; i < 100_000; i++)
            {
                watcher.requestProgress();
            }
            final long revision = engine.put("/p/x", "x").revision();
            watcher.requestProgress();
            Scenario.await(() -> audit.maxProgress() >= revision || audit.cancellation() != null, () -> "progress at "
                + revision + " after a request made once the put of revision " + revision + " returned (" + audit + ", "
                + audit.progressSeen().size() + " progress notifications)");
            assertNull(audit.cancellation());
            assertEquals(List.of(), audit.behind(), "progress behind an event delivered before it");
        }
    }

    /**
     * Issue 11 item 0, requested progress as etcd's RequestProgress and Kubernetes' consistent
     * reads from the watch cache use it: a request made after a write returned revision R is
     * answered, in time, with a progress of at least R, round after round, with requests from a
     * tight loop collapsing in between.
     *
     * <p>FINDING. On main 48794c3 this test and {@link #aRequestAfterATightLoopIsStillAnswered}
     * both failed (seen at round 1 and round 12): the events arrive, but the last progress is R - 1
     * and no progress R ever follows. Main 025bf18 answers a request at the window's published
     * revision read when the dispatcher takes it; the second test passes there, this one still
     * failed at round 179 of 200 (progress 178, event 179 delivered, no later progress). Likely:
     * the revision read when the request is taken can trail the one the caller saw acknowledged
     * (the window publishes after the put returns), or a request made while another is pending is
     * folded into it after the revision was read.
     */
    @Test
    void aRequestMadeAfterAWriteReturnedIsAnsweredAtLeastAtItsRevision()
    {
        try (RingWatch engine = RingWatch.open())
        {
            final Audit audit = new Audit();
            final Watcher watcher = engine.watch(WatchRequest.of(KeyRange.prefix("/p/")), audit);
            for (int round = 1; round <= 200; round++)
            {
                for (int i = 0; i < 1_000; i++)
                {
                    watcher.requestProgress();
                }
                final long revision = engine.put("/p/" + round, "v").revision();
                watcher.requestProgress();
                final int r = round;
                Scenario.await(() -> audit.maxProgress() >= revision || audit.cancellation() != null, () -> "round " + r
                    + ": progress at " + revision + " after a request made once the put of revision " + revision
                    + " returned (" + audit + ", last progress notifications " + audit.lastProgress(5) + ")");
                assertNull(audit.cancellation());
                assertEquals(List.of(), audit.behind(), "progress behind an event delivered before it");
            }
        }
    }

    private static long owedUpTo(final long revision, final long[] putRevisions, final long deleteRevision)
    {
        long owed = 0;
        for (final long put : putRevisions)
        {
            if (put <= revision)
            {
                owed++;
            }
        }
        return revision >= deleteRevision ? owed + putRevisions.length : owed;
    }

    private static String key(final int i)
    {
        return String.format("/p/%05d", i);
    }

    /** Records events and, at each progress notification, how many events had arrived before it. */
    static final class Audit implements WatchListener
    {
        private final List<Event> events = new ArrayList<>();
        private final List<long[]> progress = new ArrayList<>();
        /** Progress below an event delivered before it, or below an earlier progress. */
        private final List<String> behind = new ArrayList<>();
        private long maxProgress;
        private long lastEventRevision;
        private WatchCancellation cancellation;

        @Override
        public synchronized void onEvents(final EventBatch batch)
        {
            for (int i = 0; i < batch.size(); i++)
            {
                events.add(batch.get(i).toEvent());
                lastEventRevision = Math.max(lastEventRevision, batch.get(i).revision());
            }
        }

        synchronized void add(final List<Event> copies)
        {
            events.addAll(copies);
            copies.forEach(e -> lastEventRevision = Math.max(lastEventRevision, e.revision()));
        }

        @Override
        public synchronized void onProgress(final long revision)
        {
            if (revision < lastEventRevision || revision < maxProgress)
            {
                // A client-go reflector records a bookmark's revision as its last synced one: one
                // behind an event (or a bookmark) delivered before makes it go back and replay events.
                behind.add("progress " + revision + " after event " + events.size() + " of revision " + lastEventRevision
                    + " and progress " + maxProgress);
            }
            progress.add(new long[] {revision, events.size()});
            maxProgress = Math.max(maxProgress, revision);
        }

        /** @return every progress that went behind an event or a progress delivered before it. */
        synchronized List<String> behind()
        {
            return new ArrayList<>(behind);
        }

        @Override
        public synchronized void onCancelled(final WatchCancellation cancellation)
        {
            this.cancellation = cancellation;
        }

        synchronized int events()
        {
            return events.size();
        }

        synchronized long maxProgress()
        {
            return maxProgress;
        }

        synchronized WatchCancellation cancellation()
        {
            return cancellation;
        }

        synchronized List<Event> copy()
        {
            return new ArrayList<>(events);
        }

        synchronized String lastProgress(final int count)
        {
            final StringBuilder text = new StringBuilder();
            for (int i = Math.max(0, progress.size() - count); i < progress.size(); i++)
            {
                text.append(progress.get(i)[0]).append(" after ").append(progress.get(i)[1]).append(" events; ");
            }
            return text.toString();
        }

        synchronized List<long[]> progressSeen()
        {
            return new ArrayList<>(progress);
        }

        @Override
        public synchronized String toString()
        {
            return events.size() + " events, progress up to " + maxProgress + ", cancellation " + cancellation;
        }
    }

    /** Reads a watch the way its kind is read: nothing for push, a polling or next() thread for pull. */
    static final class Reader implements AutoCloseable
    {
        private final Watcher watcher;
        private final Thread thread;
        private final AtomicBoolean running = new AtomicBoolean(true);

        private Reader(final Watcher watcher, final Kind kind, final Audit audit)
        {
            this.watcher = watcher;
            if (kind == Kind.PUSH)
            {
                thread = null;
                return;
            }
            final PullWatcher pull = (PullWatcher)watcher;
            thread = new Thread(() -> read(pull, kind, audit), "reader");
            thread.start();
        }

        static Reader start(final RingWatch engine, final Kind kind, final WatchRequest request, final Audit audit)
        {
            return new Reader(kind == Kind.PUSH ? engine.watch(request, audit) : engine.watchPull(request), kind, audit);
        }

        static Reader drain(final PullWatcher watcher, final Kind kind, final Audit audit)
        {
            return new Reader(watcher, kind, audit);
        }

        private void read(final PullWatcher pull, final Kind kind, final Audit audit)
        {
            try
            {
                while (running.get())
                {
                    if (kind == Kind.POLL)
                    {
                        if (pull.poll(audit, 256) == 0)
                        {
                            LockSupport.parkNanos(50_000);
                        }
                    }
                    else
                    {
                        final WatchResponse response = pull.next(Duration.ofMillis(20));
                        // Each progress mark where it fell among the response's events.
                        response.inOrder(audit::add, audit::onProgress);
                        if (response.cancellation() != null)
                        {
                            audit.onCancelled(response.cancellation());
                            return;
                        }
                    }
                }
            }
            catch (final InterruptedException e)
            {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public void close() throws InterruptedException
        {
            running.set(false);
            if (thread != null)
            {
                thread.join(Scenario.PATIENCE.toMillis());
            }
            watcher.cancel();
        }
    }
}
