package io.ringwatch.engine.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.errors.HistoryLostException;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.spi.HistoryGapException;
import io.ringwatch.engine.watch.CancelReason;
import io.ringwatch.engine.watch.EventBatch;
import io.ringwatch.engine.watch.WatchCancellation;
import io.ringwatch.engine.watch.WatchListener;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.persistence.LogConfig;
import io.ringwatch.persistence.LogGapException;
import io.ringwatch.persistence.LogReader;
import io.ringwatch.persistence.RetentionPolicy;
import io.ringwatch.persistence.RevisionLog;
import io.ringwatch.persistence.VerifyReport;
import net.openhft.chronicle.queue.rollcycles.TestRollCycles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cycle file deleted from the middle of a persistent engine's log (by an operator or a bad
 * restore, not by retention, which deletes oldest first): the history there is lost, not
 * compacted. Before: a catching-up watcher that reached the gap was cancelled REVISION_UNAVAILABLE
 * with compactRevision 1 (a client resuming there met the same gap for ever) and a message blaming
 * retention; a watch starting inside the gap the same; a reopen without a snapshot failed with a
 * bare IllegalStateException blaming retention, and with a snapshot after the gap it opened as if
 * nothing were wrong. Now: the watcher is cancelled {@link CancelReason#HISTORY_LOST} after
 * contiguous revisions only, naming the range ({@link HistoryGapException}) and resuming after it;
 * the open is refused with {@link LogGapException} (etcd does not start on a WAL with a hole)
 * before anything changes; the replay tool's {@code verify} (through {@link RevisionLog#verify()})
 * names the same first missing revision.
 */
class MissingCycleFileTest
{
    private static final int PER_CYCLE = 200;
    private static final int CYCLES = 6;
    /** The third cycle file holds revisions 401..600. */
    private static final long GAP_FROM = 2 * PER_CYCLE + 1;
    private static final long GAP_TO = 3 * PER_CYCLE;

    @TempDir
    Path dir;

    private final AtomicLong now = new AtomicLong(1_700_000_000_000L);

    private RingWatchConfig config(final long snapshotEvery)
    {
        final LogConfig log = LogConfig.builder(dir).rollCycle(TestRollCycles.TEST_SECONDLY).clockMillis(now::get)
            .blockSize(1 << 20).retention(RetentionPolicy.keepAll()).build();
        return RingWatchConfig.builder().persistence(log).windowCapacity(1024, 1024).snapshotEveryRevisions(snapshotEvery).build();
    }

    private void fill(final RingWatch engine)
    {
        for (int cycle = 0; cycle < CYCLES; cycle++)
        {
            for (int i = 0; i < PER_CYCLE; i++)
            {
                engine.put("k" + i, "v" + cycle);
            }
            now.addAndGet(1_000);
        }
    }

    private List<Path> queueFiles() throws IOException
    {
        try (Stream<Path> files = Files.list(dir.resolve("queue")))
        {
            return files.filter(f -> f.toString().endsWith(".cq4")).sorted().toList();
        }
    }

    private Map<Path, Long> sizes() throws IOException
    {
        try (Stream<Path> files = Files.walk(dir))
        {
            return files.filter(Files::isRegularFile).collect(Collectors.toMap(f -> f, f -> f.toFile().lastModified()));
        }
    }

    /** Watches everything from {@code start}; records revisions and the ending. */
    private static CompletableFuture<WatchCancellation> watchFrom(final RingWatch engine, final long start, final List<Long> seen)
    {
        final CompletableFuture<WatchCancellation> cancelled = new CompletableFuture<>();
        engine.watch(WatchRequest.of(KeyRange.all()).startRevision(start), new WatchListener()
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
                cancelled.complete(cancellation);
            }
        });
        return cancelled;
    }

    private static void assertLost(final WatchCancellation cancellation)
    {
        assertEquals(CancelReason.HISTORY_LOST, cancellation.reason(), cancellation.toString());
        assertEquals(GAP_TO + 1, cancellation.compactRevision(), cancellation.toString());
        final HistoryGapException gap = assertInstanceOf(HistoryGapException.class, cancellation.cause());
        assertEquals(GAP_FROM, gap.missingFrom());
        assertEquals(GAP_TO, gap.missingTo());
        assertTrue(cancellation.message().contains(GAP_FROM + ".." + GAP_TO), cancellation.message());
    }

    @Test
    void aCatchingUpWatcherThatMeetsTheGapIsCancelledHistoryLostAfterContiguousRevisions() throws Exception
    {
        try (RingWatch engine = RingWatch.open(config(0)))
        {
            fill(engine);
            Files.delete(queueFiles().get(2));
            final List<Long> seen = new CopyOnWriteArrayList<>();
            final WatchCancellation cancellation = watchFrom(engine, 1, seen).get(60, TimeUnit.SECONDS);
            assertLost(cancellation);
            assertEquals(GAP_FROM - 1, seen.size(), "every revision before the gap, once");
            for (int i = 0; i < seen.size(); i++)
            {
                assertEquals(i + 1, seen.get(i));
            }
        }
    }

    /**
     * A read at a past revision before the gap, which must undo the changes after it from the log,
     * is told those revisions are lost (typed, naming them), not that its revision was compacted; a
     * read at a revision after the gap still works.
     */
    @Test
    void aReadAtAPastRevisionAcrossTheGapIsToldTheHistoryIsLost() throws Exception
    {
        try (RingWatch engine = RingWatch.open(config(0)))
        {
            fill(engine);
            Files.delete(queueFiles().get(2));
            final HistoryLostException lost =
                assertThrows(HistoryLostException.class, () -> engine.range(KeyRange.all(), 0, 100));
            assertEquals(100, lost.requestedRevision());
            assertEquals(GAP_FROM, lost.missingFrom());
            assertEquals(GAP_TO, lost.missingTo());
            assertTrue(lost.getMessage().contains(GAP_FROM + ".." + GAP_TO), lost.getMessage());
            final long after = GAP_TO + PER_CYCLE / 2;
            final List<KeyValue> atAfter = engine.range(KeyRange.all(), 0, after).kvs();
            assertEquals(PER_CYCLE, atAfter.size());
            assertEquals("v3", atAfter.get(0).valueAsString(), "k0 was last written in the fourth cycle by " + after);
        }
    }

    /**
     * A reader seeking into the gap (a watch starting there on a live engine whose queue no longer
     * maps the file) is told the range is missing, not that the revision was compacted. (A live
     * engine that still maps the deleted file reads it from the mapping, so the seek is checked on a
     * read-only log.)
     */
    @Test
    void aSeekIntoTheGapNamesIt() throws Exception
    {
        try (RingWatch engine = RingWatch.open(config(0)))
        {
            fill(engine);
        }
        Files.delete(queueFiles().get(2));
        try (RevisionLog log = RevisionLog.openReadOnly(dir); LogReader reader = log.reader())
        {
            final LogGapException gap = assertThrows(LogGapException.class, () -> reader.seek(GAP_FROM + 50));
            assertEquals(GAP_FROM, gap.missingFrom());
            assertEquals(GAP_TO, gap.missingTo());
            assertTrue(reader.seek(GAP_TO + 1), "the log goes on after the gap");
            assertTrue(reader.seek(GAP_FROM - 1), "and holds what is before it");
        }
    }

    @Test
    void aReopenOverTheGapIsRefusedNamingItAndChangesNothing() throws Exception
    {
        try (RingWatch engine = RingWatch.open(config(0)))
        {
            fill(engine);
        }
        Files.delete(queueFiles().get(2));
        final Map<Path, Long> before = sizes();
        final LogGapException refused = assertThrows(LogGapException.class, () -> RingWatch.open(config(0)).close());
        assertEquals(GAP_FROM, refused.missingFrom());
        assertEquals(GAP_TO, refused.missingTo());
        assertEquals(before, sizes(), "a refused open changes nothing");
        try (RevisionLog log = RevisionLog.openReadOnly(dir))
        {
            final VerifyReport report = log.verify();
            assertTrue(report.problem().contains("revision " + GAP_FROM + " is missing"), report.problem());
            assertEquals(GAP_FROM - 1, report.lastRevision());
        }
    }

    @Test
    void aReopenFromASnapshotAfterTheGapIsRefusedToo() throws Exception
    {
        try (RingWatch engine = RingWatch.open(config(4 * PER_CYCLE)))
        {
            fill(engine);
        }
        try (Stream<Path> snapshots = Files.list(dir.resolve("snapshots")))
        {
            assertTrue(snapshots.anyMatch(f -> f.toString().endsWith(".snap")), "a snapshot after the gap");
        }
        Files.delete(queueFiles().get(2));
        final LogGapException refused = assertThrows(LogGapException.class, () -> RingWatch.open(config(0)).close());
        assertEquals(GAP_FROM, refused.missingFrom());
        assertEquals(GAP_TO, refused.missingTo());
    }
}
