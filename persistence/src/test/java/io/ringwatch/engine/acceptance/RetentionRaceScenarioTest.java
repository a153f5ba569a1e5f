package io.ringwatch.engine.acceptance;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.watch.CancelReason;
import io.ringwatch.engine.watch.EventBatch;
import io.ringwatch.engine.watch.WatchCancellation;
import io.ringwatch.engine.watch.WatchListener;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.persistence.LogConfig;
import io.ringwatch.persistence.RetentionPolicy;
import net.openhft.chronicle.queue.rollcycles.TestRollCycles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Watches from revisions in the log but out of the window while the log rolls a cycle every 200
 * revisions, the engine compacts and snapshots behind the writer and retention deletes the files
 * the watchers read: slow watchers (a pause every few batches) started at revision 1 and at
 * points the compaction is about to pass. Promises checked: every watcher's events are contiguous;
 * a watcher ends only COMPACTED naming a revision past what it saw (never REVISION_UNAVAILABLE, nor
 * HISTORY_LOST, which would mean retention's deletions were taken for a file missing from the
 * middle), or not at all and then reaches the last revision. Passed on first writing; kept as a
 * guard of the reader's retention-or-damage decision ({@code LogGapException}).
 */
class RetentionRaceScenarioTest
{
    private static final int PER_CYCLE = 200;
    private static final int CYCLES = Scenario.LONG ? 300 : 40;

    @TempDir
    Path dir;

    @Test
    void watchersReadingFilesRetentionDeletesEndCompactedOrReachTheEndWithNoGap() throws Exception
    {
        final AtomicLong now = new AtomicLong(1_700_000_000_000L);
        final LogConfig log = LogConfig.builder(dir).rollCycle(TestRollCycles.TEST_SECONDLY).clockMillis(now::get)
            .blockSize(1 << 20).retention(RetentionPolicy.keepAll().keepRevisions(1)).build();
        final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        final List<Slow> watchers = new ArrayList<>();
        final java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
        try (RingWatch engine = RingWatch.open(RingWatchConfig.builder().persistence(log).windowCapacity(1024, 1024)
            .snapshotEveryRevisions(PER_CYCLE).build()))
        {
            for (int cycle = 0; cycle < CYCLES; cycle++)
            {
                for (int i = 0; i < PER_CYCLE; i++)
                {
                    engine.put("k" + i, "v" + cycle);
                }
                now.addAndGet(1_000);
                final long current = engine.currentRevision();
                if (cycle % 4 == 1)
                {
                    // One from the start of what is held, one just ahead of the next compaction point.
                    for (final long start : new long[] {Math.max(1, engine.compactRevision()), Math.max(1, current - 2 * PER_CYCLE)})
                    {
                        final Slow watcher = new Slow(start, failures, watchers.size() % 3 == 0 ? engine::compactRevision : null, done);
                        watchers.add(watcher);
                        engine.watch(WatchRequest.of(KeyRange.all()).startRevision(start), watcher);
                    }
                }
                if (cycle % 2 == 1)
                {
                    engine.compact(current - PER_CYCLE);
                }
            }
            done.set(true);
            final long last = engine.currentRevision();
            for (final Slow watcher : watchers)
            {
                Scenario.await(() -> watcher.ending.get() != null || watcher.seen.get() == last,
                    () -> "a watcher from " + watcher.start + " ending or reaching " + last + " (at " + watcher.seen.get() + ")");
            }
            assertTrue(failures.isEmpty(), () -> failures.size() + " failures, first: " + failures.peek());
        }
        long compacted = 0;
        for (final Slow watcher : watchers)
        {
            final WatchCancellation ending = watcher.ending.get();
            if (ending != null && ending.reason() == CancelReason.COMPACTED)
            {
                compacted++;
            }
        }
        assertTrue(compacted > 0, "no watcher was overtaken by the compaction: the scenario raced nothing");
    }

    /** Pauses every fourth batch; a held one waits in its first batch until the compaction passes it. */
    private static final class Slow implements WatchListener
    {
        final long start;
        final AtomicLong seen;
        final AtomicReference<WatchCancellation> ending = new AtomicReference<>();
        private final ConcurrentLinkedQueue<String> failures;
        private int batches;

        /** For a held watcher, the compaction point it waits inside its listener to see pass it; else null. */
        private final java.util.function.LongSupplier compaction;
        private final java.util.concurrent.atomic.AtomicBoolean done;

        Slow(final long start, final ConcurrentLinkedQueue<String> failures, final java.util.function.LongSupplier compaction,
            final java.util.concurrent.atomic.AtomicBoolean done)
        {
            this.start = start;
            this.seen = new AtomicLong(start - 1);
            this.failures = failures;
            this.compaction = compaction;
            this.done = done;
        }

        @Override
        public void onEvents(final EventBatch events)
        {
            for (int i = 0; i < events.size(); i++)
            {
                final long revision = events.get(i).revision();
                if (revision != seen.get() + 1)
                {
                    failures.add("watcher from " + start + ": revision " + revision + " after " + seen.get());
                }
                seen.set(revision);
            }
            if (++batches % 4 == 0)
            {
                LockSupport.parkNanos(2_000_000);
            }
            // A held watcher stays in its listener until the compaction (and with it retention) overtakes it
            // by more than its queue holds (1,024 events), so it reads by cursor behind the compaction point.
            while (compaction != null && batches == 1 && compaction.getAsLong() <= seen.get() + 10 * PER_CYCLE && !done.get())
            {
                LockSupport.parkNanos(1_000_000);
            }
        }

        @Override
        public void onCancelled(final WatchCancellation cancellation)
        {
            ending.set(cancellation);
            if (cancellation.reason() == CancelReason.ENGINE_CLOSED)
            {
                return;
            }
            if (cancellation.reason() != CancelReason.COMPACTED || cancellation.compactRevision() <= seen.get())
            {
                failures.add("watcher from " + start + " at " + seen.get() + ": " + cancellation);
            }
        }
    }
}
