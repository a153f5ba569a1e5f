package io.ringwatch.engine.internal.durable;

import static io.ringwatch.engine.DirectoryTrees.copyTree;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.errors.CompactedException;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.watch.CancelReason;
import io.ringwatch.engine.watch.EventBatch;
import io.ringwatch.engine.watch.WatchCancellation;
import io.ringwatch.engine.watch.WatchListener;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.persistence.LogConfig;
import io.ringwatch.persistence.RevisionLog;
import io.ringwatch.persistence.VerifyReport;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The revision bump after an unclean close (etcd's {@code --bump-revision --mark-compacted}): an
 * ASYNC engine reopened after a kill starts at L + B, compacted there; a clean close and a SYNC
 * journal bump nothing; an unclean reopen after an unclean reopen bumps again; recovery from a
 * snapshot before a skip, and verify, accept the log. A kill -9 is simulated by copying the data
 * directory while the engine is open (the copy holds what a killed process leaves on disk; its
 * lock is free); {@code UncleanAsyncReopenTest} does it with a real kill.
 */
class CrashBumpTest
{
    private static final long BUMP = 10_000;

    @TempDir
    Path dir;

    private static RingWatch open(final Path data, final LogConfig.Durability durability)
    {
        return RingWatch.open(RingWatchConfig.builder().writeRingSize(1024).crashRevisionBump(BUMP)
            .persistence(LogConfig.builder(data).durability(durability).build()).build());
    }

    @Test
    void aCleanCloseBumpsNothing()
    {
        final Path data = dir.resolve("data");
        try (RingWatch engine = open(data, LogConfig.Durability.ASYNC))
        {
            write(engine, 10);
        }
        try (RingWatch engine = open(data, LogConfig.Durability.ASYNC))
        {
            assertEquals(10, engine.currentRevision());
            assertEquals(0, engine.compactRevision());
            assertEquals(11, engine.put("/k", "after").revision());
        }
    }

    @Test
    void aSyncJournalBumpsNothingAfterAKill() throws IOException
    {
        final Path killed = killedAfterTenWrites(LogConfig.Durability.SYNC);
        try (RingWatch engine = open(killed, LogConfig.Durability.SYNC))
        {
            assertEquals(10, engine.currentRevision(), "SYNC shows nothing before it is durable: nothing to skip");
            assertEquals(0, engine.compactRevision());
        }
    }

    @Test
    void anAsyncEngineReopenedAfterAKillStartsPastTheBumpCompactedThere() throws Exception
    {
        final Path killed = killedAfterTenWrites(LogConfig.Durability.ASYNC);
        try (RingWatch engine = open(killed, LogConfig.Durability.ASYNC))
        {
            assertEquals(10 + BUMP, engine.currentRevision());
            assertEquals(10 + BUMP, engine.compactRevision());
            assertEquals("v9", engine.range(KeyRange.key("/k/9"), 0, 10 + BUMP).kvs().get(0).valueAsString(),
                "the state at the bumped revision is the state recovered");
            assertThrows(CompactedException.class, () -> engine.range(KeyRange.key("/k/9"), 0, 11));
            assertEquals(CancelReason.COMPACTED, resume(engine, 12).reason(), "a client that saw revision 11 relists");
            final CompletableFuture<Long> first = new CompletableFuture<>();
            engine.watch(WatchRequest.of(KeyRange.all()).startRevision(10 + BUMP), batch -> first.complete(batch.get(0).revision()));
            assertEquals(10 + BUMP + 1, engine.put("/k/new", "x").revision());
            assertEquals(10 + BUMP + 1, first.get(30, TimeUnit.SECONDS), "a watch from the compaction point reads on past the skip");
        }
    }

    @Test
    void aSecondUncleanReopenInARowBumpsAgainAndRecoveryFromASnapshotBeforeTheSkipsReplaysAcrossThem() throws Exception
    {
        final Path data = dir.resolve("data");
        try (RingWatch engine = open(data, LogConfig.Durability.ASYNC))
        {
            write(engine, 10);
        }
        final Path first = dir.resolve("first");
        try (RingWatch engine = open(data, LogConfig.Durability.ASYNC))
        {
            // Snapshot at 10 (the clean close's); 11..15 only in the log.
            for (int i = 0; i < 5; i++)
            {
                engine.put("/later/" + i, "l" + i);
            }
            copyTree(data, first);
        }
        final Path second = dir.resolve("second");
        try (RingWatch engine = open(first, LogConfig.Durability.ASYNC))
        {
            assertEquals(15 + BUMP, engine.currentRevision());
            assertEquals(15 + BUMP + 1, engine.put("/after/1", "a1").revision());
            copyTree(first, second);
        }
        final Path third = dir.resolve("third");
        try (RingWatch engine = open(second, LogConfig.Durability.ASYNC))
        {
            assertEquals(15 + 2 * BUMP + 1, engine.currentRevision(), "bumped again from the last revision, 15 + B + 1");
            assertEquals("l4", engine.get("/later/4").orElseThrow().valueAsString(), "replayed from the snapshot at 10");
            assertEquals("a1", engine.get("/after/1").orElseThrow().valueAsString(), "replayed across the skip");
            copyTree(second, third);
        }
        try (RingWatch engine = open(third, LogConfig.Durability.ASYNC))
        {
            assertEquals(15 + 3 * BUMP + 1, engine.currentRevision(), "a skip that ends the log counts as its last revision");
        }
        try (RingWatch engine = open(third, LogConfig.Durability.ASYNC))
        {
            assertEquals(15 + 3 * BUMP + 1, engine.currentRevision(), "closed cleanly: no bump");
        }
        try (RevisionLog log = RevisionLog.openReadOnly(third))
        {
            final VerifyReport report = log.verify();
            assertTrue(report.ok(), report::problem);
            assertEquals(15 + 3 * BUMP + 1, report.lastRevision());
            assertEquals(16, report.revisions());
        }
    }

    @Test
    void recoveryFromASnapshotAtTheLastRevisionBeforeASkipSeeksIntoTheSkip() throws Exception
    {
        final Path data = dir.resolve("data");
        try (RingWatch engine = open(data, LogConfig.Durability.ASYNC))
        {
            write(engine, 10);
        }
        final Path first = dir.resolve("first");
        try (RingWatch engine = open(data, LogConfig.Durability.ASYNC))
        {
            copyTree(data, first);
        }
        final Path second = dir.resolve("second");
        try (RingWatch engine = open(first, LogConfig.Durability.ASYNC))
        {
            assertEquals(10 + BUMP, engine.currentRevision());
            copyTree(first, second);
        }
        try (RingWatch engine = open(second, LogConfig.Durability.ASYNC))
        {
            // The snapshot is at 10 and the log ends in a skip from 11: replay seeks 11, inside the skip.
            assertEquals(10 + 2 * BUMP, engine.currentRevision());
            assertEquals("v9", engine.get("/k/9").orElseThrow().valueAsString());
        }
    }

    /**
     * @return a copy of a data directory taken while its engine was open after ten writes, as a
     *         kill -9 would leave it (the metadata still says open).
     */
    private Path killedAfterTenWrites(final LogConfig.Durability durability) throws IOException
    {
        final Path killed = dir.resolve("killed");
        try (RingWatch engine = open(dir.resolve("data"), durability))
        {
            write(engine, 10);
            copyTree(dir.resolve("data"), killed);
        }
        return killed;
    }

    private static void write(final RingWatch engine, final int count)
    {
        for (int i = 0; i < count; i++)
        {
            engine.put("/k/" + i, "v" + i);
        }
    }

    private static WatchCancellation resume(final RingWatch engine, final long from) throws Exception
    {
        final CompletableFuture<WatchCancellation> outcome = new CompletableFuture<>();
        engine.watch(WatchRequest.of(KeyRange.all()).startRevision(from), new WatchListener()
        {
            @Override
            public void onEvents(final EventBatch events)
            {
                outcome.completeExceptionally(new AssertionError("delivered revision " + events.get(0).revision()));
            }

            @Override
            public void onCancelled(final WatchCancellation cancellation)
            {
                outcome.complete(cancellation);
            }
        });
        return outcome.get(30, TimeUnit.SECONDS);
    }
}
