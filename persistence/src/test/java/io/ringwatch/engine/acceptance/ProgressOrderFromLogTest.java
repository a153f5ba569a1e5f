package io.ringwatch.engine.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.Txn;
import io.ringwatch.engine.watch.Event;
import io.ringwatch.engine.watch.EventBatch;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.WatchCancellation;
import io.ringwatch.engine.watch.WatchListener;
import io.ringwatch.engine.watch.WatchRequest;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Progress read from the revision log never goes behind an event already delivered, and never
 * splits a revision: a pull watcher started at revision 1 long after the window (1,024 events)
 * moved on reads the log by cursor while a writer goes on writing transactions of four changes,
 * three of them the watch's; before every poll (of 1 to 7 events, so polls end inside
 * transactions) it asks for progress. With an ASYNC journal the cursor also meets the journal's
 * end inside a revision and rejoins and falls behind again. Every progress must be at or above the
 * last event's revision, never decrease, and fall between transactions (a multiple of three events
 * before it). The seed is printed; {@code -Dringwatch.progressOrder.seed=N} repeats its choices.
 */
class ProgressOrderFromLogTest
{
    private static final int BEFORE = 500;
    private static final int DURING = Scenario.LONG ? 50_000 : 500;

    @ParameterizedTest(name = "{0} engine")
    @EnumSource(value = Scenario.Mode.class, names = {"ASYNC", "SYNC"})
    void progressFromTheLogIsNeverBehindAnEventNorInsideARevision(final Scenario.Mode mode, @TempDir final Path dir)
        throws Exception
    {
        final long seed = Long.getLong("ringwatch.progressOrder.seed", System.nanoTime());
        System.out.println("ProgressOrderFromLogTest " + mode + " seed=" + seed);
        final Random random = new Random(seed);
        try (RingWatch engine = RingWatch.open(mode.builder(dir).windowCapacity(1 << 10, 1 << 10)
            .windowFreshness(Duration.ofNanos(1)).watcherQueueDepth(8).build()))
        {
            final long first = engine.currentRevision() + 1;
            for (int i = 0; i < BEFORE; i++)
            {
                engine.txn(txn(i));
            }
            final PullWatcher watcher = engine.watchPull(WatchRequest.of(KeyRange.prefix("a/")).startRevision(first));
            final Thread writer = new Thread(() ->
            {
                for (int i = BEFORE; i < BEFORE + DURING; i++)
                {
                    engine.txn(txn(i));
                }
            }, "progress-order-writer");
            writer.start();
            final Audit audit = new Audit();
            final int owed = 3 * (BEFORE + DURING);
            // A hang guard, not a time limit: the deadline moves on while events still arrive (the
            // long run's 50,000 SYNC transactions take minutes on a loaded machine).
            long deadline = System.nanoTime() + Scenario.PATIENCE.toNanos();
            int seen = 0;
            while (audit.events.size() < owed || audit.lastProgress < first + BEFORE + DURING - 1)
            {
                if (audit.events.size() > seen)
                {
                    seen = audit.events.size();
                    deadline = System.nanoTime() + Scenario.PATIENCE.toNanos();
                }
                assertTrue(System.nanoTime() < deadline, "stalled: " + audit + ", seed " + seed);
                assertNull(audit.cancellation, "cancelled, seed " + seed);
                watcher.requestProgress();
                if (watcher.poll(audit, 1 + random.nextInt(7)) == 0)
                {
                    Thread.onSpinWait();
                }
            }
            writer.join();
            assertEquals(List.of(), audit.violations, "seed " + seed);
            assertEquals(owed, audit.events.size(), "seed " + seed);
            for (int i = 0; i < owed; i++)
            {
                assertEquals(first + i / 3, audit.events.get(i).revision(), "event " + i + ", seed " + seed);
            }
            assertTrue(audit.progressCount > 10, "progress was reported along the way: " + audit);
        }
    }

    /** Changes a/1, b/x, a/2 and a/3 in one revision: three of them the watch's. */
    private static Txn txn(final int i)
    {
        final String v = Integer.toString(i);
        return Txn.of(List.of(), List.of(Op.put("a/1", v), Op.put("b/x", v), Op.put("a/2", v), Op.put("a/3", v)), List.of());
    }

    /** Checks each progress against what came before it; the polling thread only. */
    private static final class Audit implements WatchListener
    {
        final List<Event> events = new ArrayList<>();
        final List<String> violations = new ArrayList<>();
        long lastEventRevision;
        long lastProgress;
        int progressCount;
        WatchCancellation cancellation;

        @Override
        public void onEvents(final EventBatch batch)
        {
            for (int i = 0; i < batch.size(); i++)
            {
                events.add(batch.get(i).toEvent());
                lastEventRevision = Math.max(lastEventRevision, batch.get(i).revision());
            }
        }

        @Override
        public void onProgress(final long revision)
        {
            progressCount++;
            if (revision < lastEventRevision || revision < lastProgress)
            {
                violations.add("progress " + revision + " after event " + events.size() + " of revision "
                    + lastEventRevision + " and progress " + lastProgress);
            }
            if (events.size() % 3 != 0)
            {
                violations.add("progress " + revision + " inside a revision, after event " + events.size());
            }
            lastProgress = Math.max(lastProgress, revision);
        }

        @Override
        public void onCancelled(final WatchCancellation cancellation)
        {
            this.cancellation = cancellation;
        }

        @Override
        public String toString()
        {
            return events.size() + " events, " + progressCount + " progress up to " + lastProgress + ", violations " + violations;
        }
    }
}
