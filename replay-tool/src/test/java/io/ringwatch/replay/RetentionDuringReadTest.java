package io.ringwatch.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import io.ringwatch.persistence.ChangeType;
import io.ringwatch.persistence.LogConfig;
import io.ringwatch.persistence.RetentionPolicy;
import io.ringwatch.persistence.RevisionLog;
import io.ringwatch.persistence.SnapshotWriter;
import net.openhft.chronicle.queue.rollcycles.TestRollCycles;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tool reads a live log whose writer's retention deletes the files the walk is in and the ones
 * after it: the walk stops with "out of the log's reach" (exit code 4) naming retention, after
 * handing over only contiguous revisions, instead of reporting the log corrupt.
 */
class RetentionDuringReadTest
{
    private static final int PER_CYCLE = 20;

    @TempDir
    Path dir;

    @Test
    void aWalkWhoseFilesTheWritersRetentionDeletesStopsAsOutOfReachNotCorrupt()
    {
        final AtomicLong now = new AtomicLong(1_700_000_000_000L);
        final LogConfig config = LogConfig.builder(dir).rollCycle(TestRollCycles.TEST_SECONDLY).clockMillis(now::get)
            .blockSize(1 << 20).retention(RetentionPolicy.keepAll().keepRevisions(1)).build();
        try (RevisionLog writer = RevisionLog.open(config))
        {
            for (long r = 1; r <= 5 * PER_CYCLE; r++)
            {
                if (r % PER_CYCLE == 0)
                {
                    now.addAndGet(1_000);
                }
                put(writer, r);
            }
            final long last = writer.lastRevision();
            final List<Long> read = new ArrayList<>();
            try (SourceLog source = SourceLog.open(dir))
            {
                final RevisionOutOfRangeException gone = assertThrows(RevisionOutOfRangeException.class,
                    () -> source.read(new RevisionSpan(1, last), record ->
                    {
                        read.add(record.revision());
                        if (record.revision() == 1)
                        {
                            trim(writer, last);
                        }
                    }, Progress.none()));
                assertEquals(ExitCodes.BAD_REVISION, gone.exitCode());
                assertTrue(gone.getMessage().contains("retention"), gone.getMessage());
            }
            for (int i = 0; i < read.size(); i++)
            {
                assertEquals(i + 1, read.get(i), "contiguous from 1");
            }
            assertEquals(PER_CYCLE - 1, read.size(), "the walk finished the file it was in");
        }
    }

    /** What the engine does: compact, snapshot, then retention deletes every file but the newest. */
    private static void trim(final RevisionLog writer, final long last)
    {
        writer.compact(last);
        try (SnapshotWriter snapshot = writer.snapshotWriter(last))
        {
            snapshot.commit();
        }
        assertTrue(writer.enforceRetention() > 1);
    }

    private static void put(final RevisionLog log, final long revision)
    {
        final UnsafeBuffer key = new UnsafeBuffer(("/k" + revision).getBytes(StandardCharsets.UTF_8));
        final UnsafeBuffer value = new UnsafeBuffer(("v" + revision).getBytes(StandardCharsets.UTF_8));
        log.beginRevision(revision, revision * 1_000_000L);
        log.appendChange(ChangeType.PUT, key, 0, key.capacity(), value, 0, value.capacity(), revision, revision, 1,
            null, 0, 0, 0, 0, 0);
        log.endRevision();
    }
}
