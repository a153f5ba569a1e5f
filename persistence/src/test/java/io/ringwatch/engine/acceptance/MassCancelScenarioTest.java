package io.ringwatch.engine.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.watch.CancelReason;
import io.ringwatch.engine.watch.EventBatch;
import io.ringwatch.engine.watch.WatchCancellation;
import io.ringwatch.engine.watch.WatchListener;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.engine.watch.Watcher;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Thousands of watchers cancelled from four threads at once while a writer runs, beside watchers
 * whose listener throws on their Nth event (N from 1 to 97) and one control watcher. Promises
 * checked: every watcher's events are contiguous revisions; once {@code cancel()} returns no
 * listener call starts for that watcher, and each ends exactly once, CANCELLED_BY_CLIENT; each
 * throwing watcher ends once, LISTENER_FAILED with its own exception as the cause, and gets no
 * event after the throw; the control watcher gets every revision. Passed on first writing (no bug
 * found); kept as a guard.
 */
class MassCancelScenarioTest
{
    private static final int CANCELLED = Scenario.LONG ? 10_000 : 2_000;
    private static final int THROWING = 97;
    private static final int WRITES = Scenario.LONG ? 100_000 : 10_000;

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = Scenario.Mode.class, names = {"MEMORY", "ASYNC"})
    void massCancelAndThrowingListenersLeaveEveryOtherPromiseIntact(final Scenario.Mode mode) throws Exception
    {
        final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        try (RingWatch engine = RingWatch.open(mode.builder(dir).build()))
        {
            engine.put("k", "0");
            final long start = engine.currentRevision() + 1;
            final Recording control = new Recording(start, 0, failures);
            engine.watch(WatchRequest.of(KeyRange.all()).startRevision(start), control);
            final List<Recording> throwing = new ArrayList<>();
            for (int n = 1; n <= THROWING; n++)
            {
                final Recording recording = new Recording(start, n, failures);
                throwing.add(recording);
                engine.watch(WatchRequest.of(KeyRange.all()).startRevision(start), recording);
            }
            final List<Recording> cancelled = new ArrayList<>();
            final List<Watcher> watchers = new ArrayList<>();
            for (int i = 0; i < CANCELLED; i++)
            {
                final Recording recording = new Recording(start, 0, failures);
                cancelled.add(recording);
                watchers.add(engine.watch(WatchRequest.of(i % 2 == 0 ? KeyRange.all() : KeyRange.prefix("k")).startRevision(start), recording));
            }
            final CountDownLatch go = new CountDownLatch(1);
            final List<Thread> cancellers = new ArrayList<>();
            for (int t = 0; t < 4; t++)
            {
                final int first = t;
                final Thread canceller = new Thread(() ->
                {
                    try
                    {
                        go.await();
                    }
                    catch (final InterruptedException e)
                    {
                        return;
                    }
                    for (int i = first; i < CANCELLED; i += 4)
                    {
                        watchers.get(i).cancel();
                        cancelled.get(i).cancelReturned = true;
                    }
                }, "canceller-" + t);
                canceller.start();
                cancellers.add(canceller);
            }
            for (int i = 1; i <= WRITES; i++)
            {
                engine.put("k" + (i % 100), "v" + i);
                if (i == WRITES / 10)
                {
                    go.countDown();
                }
            }
            for (final Thread canceller : cancellers)
            {
                canceller.join();
            }
            final long last = engine.currentRevision();
            Scenario.await(() -> control.seen.get() == last, () -> "the control watcher at " + control.seen.get() + " of " + last);
            for (final Recording recording : cancelled)
            {
                Scenario.await(() -> recording.ending.get() != null, "every cancelled watcher's end");
                assertEquals(CancelReason.CANCELLED_BY_CLIENT, recording.ending.get().reason());
            }
            for (final Recording recording : throwing)
            {
                Scenario.await(() -> recording.ending.get() != null, "every throwing watcher's end");
                assertEquals(CancelReason.LISTENER_FAILED, recording.ending.get().reason(), recording.ending.get().toString());
                assertSame(recording.thrown, recording.ending.get().cause());
            }
            assertTrue(failures.isEmpty(), () -> failures.size() + " failures, first: " + failures.peek());
            assertEquals(null, control.ending.get());
        }
    }

    /** Checks contiguity, events after cancel or a throw, and a single ending; throws on its Nth event when N > 0. */
    private static final class Recording implements WatchListener
    {
        private final int throwAt;
        private final ConcurrentLinkedQueue<String> failures;
        final AtomicLong seen;
        final AtomicReference<WatchCancellation> ending = new AtomicReference<>();
        private final AtomicInteger events = new AtomicInteger();
        volatile boolean cancelReturned;
        volatile RuntimeException thrown;

        Recording(final long start, final int throwAt, final ConcurrentLinkedQueue<String> failures)
        {
            this.seen = new AtomicLong(start - 1);
            this.throwAt = throwAt;
            this.failures = failures;
        }

        @Override
        public void onEvents(final EventBatch batch)
        {
            if (cancelReturned)
            {
                failures.add("a listener call after cancel() returned");
            }
            if (thrown != null)
            {
                failures.add("a listener call after the listener threw");
            }
            for (int i = 0; i < batch.size(); i++)
            {
                final long revision = batch.get(i).revision();
                if (revision != seen.get() + 1)
                {
                    failures.add("revision " + revision + " after " + seen.get());
                }
                seen.set(revision);
                if (throwAt > 0 && events.incrementAndGet() == throwAt)
                {
                    thrown = new IllegalStateException("planted failure at event " + throwAt);
                    throw thrown;
                }
            }
        }

        @Override
        public void onCancelled(final WatchCancellation cancellation)
        {
            if (!ending.compareAndSet(null, cancellation))
            {
                failures.add("a second ending " + cancellation + " after " + ending.get());
            }
        }
    }
}
