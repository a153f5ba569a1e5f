package io.ringwatch.engine.internal.durable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

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
 * Retention with a watcher pinned far behind: a watcher catching up from the log is held inside its
 * listener while the engine compacts past it, snapshots and rolls, so retention deletes the cycle
 * file it is reading and the ones after it. When it goes on it delivers only contiguous revisions
 * and is then cancelled COMPACTED with the compaction point. (A delivery turn ends with the listener
 * call here, and the next turn checks the compaction point before it reads; the reader's own check
 * for files deleted under it is {@code RetentionTest}'s.)
 */
class RetentionUnderACatchingUpWatcherTest
{
    private static final int PER_CYCLE = 200;
    private static final int CYCLES = 10;

    @TempDir
    Path dir;

    @Test
    void aWatcherWhoseFilesRetentionDeletesMidTurnIsCancelledCompactedAfterContiguousRevisionsOnly() throws Exception
    {
        final AtomicLong now = new AtomicLong(1_700_000_000_000L);
        final LogConfig log = LogConfig.builder(dir).rollCycle(TestRollCycles.TEST_SECONDLY).clockMillis(now::get)
            .blockSize(1 << 20).durability(LogConfig.Durability.SYNC).retention(RetentionPolicy.keepAll().keepRevisions(1))
            .build();
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
            }
            final long last = engine.currentRevision();
            final CountDownLatch entered = new CountDownLatch(1);
            final CountDownLatch release = new CountDownLatch(1);
            final List<Long> revisions = new ArrayList<>();
            final CompletableFuture<WatchCancellation> cancelled = new CompletableFuture<>();
            engine.watch(WatchRequest.of(KeyRange.all()).startRevision(1), new WatchListener()
            {
                @Override
                public void onEvents(final EventBatch events)
                {
                    for (int i = 0; i < events.size(); i++)
                    {
                        revisions.add(events.get(i).revision());
                    }
                    entered.countDown();
                    await(release);
                }

                @Override
                public void onCancelled(final WatchCancellation cancellation)
                {
                    cancelled.complete(cancellation);
                }
            });
            assertTrue(entered.await(60, TimeUnit.SECONDS), "the watcher delivered nothing");
            final long filesBefore = queueFiles();
            engine.compact(last);
            // Retention keeps every file at or above min(compaction point, newest snapshot + 1).
            waitFor(() -> newestSnapshot() >= 3 * PER_CYCLE, "a snapshot past the third cycle");
            now.addAndGet(1_000);
            engine.put("roll", "over");
            waitFor(() -> queueFiles() < filesBefore - 2, "retention deleting the oldest files");
            release.countDown();
            final WatchCancellation cancellation = cancelled.get(60, TimeUnit.SECONDS);
            for (int i = 1; i < revisions.size(); i++)
            {
                final long gap = revisions.get(i) - revisions.get(i - 1);
                assertTrue(gap == 0 || gap == 1, "revision " + revisions.get(i) + " after " + revisions.get(i - 1));
            }
            assertEquals(1, revisions.get(0));
            assertEquals(CancelReason.COMPACTED, cancellation.reason(), cancellation.toString());
            assertEquals(last, cancellation.compactRevision());
        }
    }

    private long queueFiles()
    {
        try (Stream<Path> files = Files.list(dir.resolve("queue")))
        {
            return files.filter(f -> f.toString().endsWith(".cq4")).count();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private long newestSnapshot()
    {
        try (Stream<Path> files = Files.list(dir.resolve("snapshots")))
        {
            return files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".snap"))
                .mapToLong(n -> Long.parseLong(n.substring("snapshot-".length(), n.length() - ".snap".length())))
                .max().orElse(0);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private static void waitFor(final BooleanSupplier condition, final String what) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean())
        {
            assertTrue(System.nanoTime() < deadline, "waited 60 s for " + what);
            Thread.sleep(10);
        }
    }

    private static void await(final CountDownLatch latch)
    {
        try
        {
            latch.await(60, TimeUnit.SECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
