package io.ringwatch.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.secondary.IndexFunction;
import io.ringwatch.engine.watch.CancelReason;
import io.ringwatch.engine.watch.EventBatch;
import io.ringwatch.engine.watch.WatchCancellation;
import io.ringwatch.engine.watch.WatchListener;
import io.ringwatch.engine.watch.WatchRequest;
import net.openhft.chronicle.queue.rollcycles.TestRollCycles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A watcher catching up from the revision log whose reader meets files that retention deleted
 * under it within one delivery turn (a compaction, a snapshot and a roll while it reads) must be
 * cancelled {@code COMPACTED} with the compaction point, as when the turn starts behind it: etcd
 * and Kubernetes clients relist from a newer revision on COMPACTED, and treat other reasons
 * differently. Found on main 817b6a0: it was cancelled {@code REVISION_UNAVAILABLE}.
 *
 * <p>The deletion happens inside the turn deterministically: the watch is by a secondary index,
 * whose function runs on the delivery thread for every change the cursor reads; reading revision
 * 2 it compacts, commits a snapshot and writes a revision into a new cycle file (SYNC: the roll and
 * its retention have run when the put returns). The 300 s timeout only turns a hang into a failure:
 * the test takes 4 s on the quiet 2-core VM but up to 56 s at a load of 20 with the log on ext4
 * (1,500 SYNC puts, each forced to disk), too close to the 60 s it had.
 */
@Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CatchUpRetentionTest
{
    /** Revisions per cycle file; fewer than a delivery batch, so the turn reads the whole file. */
    private static final int PER_CYCLE = 100;
    /** More than the window holds, so the watcher from revision 1 reads the log. */
    private static final int REVISIONS = 1_500;

    @TempDir
    Path dir;

    @Test
    void aCatchingUpWatcherWhoseFilesRetentionDeletesWithinItsTurnIsCancelledCompacted() throws Exception
    {
        final long[] now = {1_700_000_000_000L};
        final LogConfig config = LogConfig.builder(dir).durability(LogConfig.Durability.SYNC).rollCycle(TestRollCycles.TEST_SECONDLY)
            .clockMillis(() -> now[0]).blockSize(1 << 20).retention(RetentionPolicy.keepAll().keepRevisions(1)).build();
        final ChronicleJournal journal = ChronicleJournal.open(config, "catch-up-retention");
        final AtomicReference<RingWatch> engineRef = new AtomicReference<>();
        final AtomicBoolean triggered = new AtomicBoolean();
        final AtomicReference<Throwable> triggerFailure = new AtomicReference<>();
        final long[] compactedAt = {0};
        final IndexFunction self = (value, offset, length, sink) ->
        {
            if (Thread.currentThread().getName().contains("-delivery-") &&
                value.getStringWithoutLengthUtf8(offset, length).equals("trigger") && triggered.compareAndSet(false, true))
            {
                try
                {
                    final RingWatch engine = engineRef.get();
                    final long last = engine.currentRevision();
                    engine.compact(last);
                    try (SnapshotWriter snapshot = journal.log().snapshotWriter(last))
                    {
                        snapshot.commit();
                    }
                    now[0] += 1_000;
                    engine.put("/roll", "v");
                    compactedAt[0] = last;
                }
                catch (final Throwable t)
                {
                    triggerFailure.set(t);
                }
            }
            sink.accept(value, offset, length);
        };
        try (RingWatch engine = RingWatch.open(RingWatchConfig.builder().persistence(name -> journal)
            .windowCapacity(1024, 1024).build()))
        {
            engineRef.set(engine);
            engine.addIndex("self", self);
            for (int revision = 1; revision <= REVISIONS; revision++)
            {
                if (revision % PER_CYCLE == 0)
                {
                    now[0] += 1_000;
                }
                assertEquals(revision, engine.put("/k/" + revision, revision == 2 ? "trigger" : "v").revision());
            }

            final List<Long> seen = new ArrayList<>();
            final CompletableFuture<WatchCancellation> ended = new CompletableFuture<>();
            engine.watch(WatchRequest.byIndex("self", "v").startRevision(1), new WatchListener()
            {
                @Override
                public void onEvents(final EventBatch events)
                {
                    for (int i = 0; i < events.size(); i++)
                    {
                        seen.add(events.get(i).revision());
                    }
                }

                @Override
                public void onCancelled(final WatchCancellation cancellation)
                {
                    ended.complete(cancellation);
                }
            });
            final WatchCancellation cancellation = ended.get(240, TimeUnit.SECONDS);
            assertTrue(triggered.get());
            assertNull(triggerFailure.get());

            // Every revision of the reader's own file that holds "v", in order, and nothing after the gap.
            final List<Long> expected = new ArrayList<>();
            expected.add(1L);
            for (long revision = 3; revision < PER_CYCLE; revision++)
            {
                expected.add(revision);
            }
            assertEquals(expected, seen);
            assertEquals(CancelReason.COMPACTED, cancellation.reason(), cancellation.toString());
            assertEquals(compactedAt[0], cancellation.compactRevision());
        }
    }
}
