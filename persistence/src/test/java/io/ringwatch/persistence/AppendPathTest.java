package io.ringwatch.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.stream.Stream;

import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.rollcycles.TestRollCycles;
import net.openhft.chronicle.wire.DocumentContext;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The append path: one clock read per append, shared by the disk-space check and the appender, or
 * one per batch of appends; and excerpts that a plain Chronicle tailer reads as one data document
 * per revision, across rolls.
 */
class AppendPathTest
{
    private static final long SECOND = 1_000;

    @TempDir
    Path dir;

    private final TestRevisions revisions = new TestRevisions();

    @Test
    void anAppendReadsTheClockOnceOnItsThread()
    {
        final AtomicLong reads = new AtomicLong();
        try (RevisionLog log = RevisionLog.open(LogConfig.builder(dir).clockMillis(readsCounted(reads)).build()))
        {
            revisions.write(log, 1);
            reads.set(0);
            for (long r = 2; r <= 101; r++)
            {
                revisions.write(log, r);
            }
            assertEquals(100, reads.get());
        }
    }

    @Test
    void aBatchReadsTheClockOnceForAllItsAppends()
    {
        final AtomicLong reads = new AtomicLong();
        try (RevisionLog log = RevisionLog.open(LogConfig.builder(dir).clockMillis(readsCounted(reads)).build()))
        {
            revisions.write(log, 1);
            reads.set(0);
            log.beginBatch();
            for (long r = 2; r <= 101; r++)
            {
                revisions.write(log, r);
            }
            log.endBatch();
            assertEquals(1, reads.get());
            revisions.write(log, 102);
            assertEquals(2, reads.get());
        }
    }

    @Test
    void aBatchStaysInTheCycleOfItsStartAndTheNextAppendRolls() throws IOException
    {
        final long[] now = {1_700_000_000_000L};
        final LogConfig config = secondlyCycles(now);
        try (RevisionLog log = RevisionLog.open(config))
        {
            log.beginBatch();
            revisions.write(log, 1);
            now[0] += SECOND;
            revisions.write(log, 2);
            log.endBatch();
            assertEquals(1, cycleFiles());
            revisions.write(log, 3);
            assertEquals(2, cycleFiles());
            assertTrue(log.verify().ok(), () -> log.verify().problem());
            assertReadsBackThrough(log, 3);
        }
    }

    @Test
    void aSecondBatchInsideOneIsRefusedAndTheFirstStillEnds()
    {
        try (RevisionLog log = RevisionLog.open(LogConfig.builder(dir).build()))
        {
            log.beginBatch();
            assertThrows(IllegalStateException.class, log::beginBatch);
            revisions.write(log, 1);
            log.endBatch();
            log.endBatch();
            revisions.write(log, 2);
            assertEquals(2, log.lastRevision());
        }
    }

    @Test
    void aClockThatCrossesACycleBetweenAppendsRollsAndEveryRevisionReadsBack() throws IOException
    {
        final long[] now = {1_700_000_000_000L};
        final LogConfig config = secondlyCycles(now);
        try (RevisionLog log = RevisionLog.open(config))
        {
            for (long r = 1; r <= 50; r++)
            {
                if (r % 10 == 0)
                {
                    now[0] += SECOND;
                }
                revisions.write(log, r);
            }
            assertEquals(6, cycleFiles());
            assertTrue(log.verify().ok(), () -> log.verify().problem());
        }
        try (RevisionLog log = RevisionLog.open(config))
        {
            assertEquals(50, log.lastRevision());
            revisions.write(log, 51);
            assertReadsBackThrough(log, 51);
            assertEquals(51, dataDocuments(log));
        }
    }

    /** A fixed clock that counts its reads on the calling (appending) thread into {@code reads}. */
    /** A log with a cycle file per second of a clock the test sets through {@code now[0]}. */
    private LogConfig secondlyCycles(final long[] now)
    {
        return LogConfig.builder(dir).rollCycle(TestRollCycles.TEST_SECONDLY).clockMillis(() -> now[0]).build();
    }

    /** Reads revisions 1 to {@code last} back, in order, each with its test content. */
    private static void assertReadsBackThrough(final RevisionLog log, final long last)
    {
        try (LogReader reader = log.reader())
        {
            final RevisionRecord record = new RevisionRecord();
            for (long r = 1; r <= last; r++)
            {
                assertTrue(reader.next(record), "revision " + r);
                TestRevisions.check(record, r);
            }
        }
    }

    private static LongSupplier readsCounted(final AtomicLong reads)
    {
        final Thread appending = Thread.currentThread();
        return () ->
        {
            if (Thread.currentThread() == appending)
            {
                reads.incrementAndGet();
            }
            return 1_700_000_000_000L;
        };
    }

    private long cycleFiles() throws IOException
    {
        try (Stream<Path> files = Files.list(dir.resolve(LogDirectory.QUEUE)))
        {
            return files.filter(f -> f.toString().endsWith(".cq4")).count();
        }
    }

    /** Counts the queue's data documents with a plain tailer, as any Chronicle reader sees them. */
    private static long dataDocuments(final RevisionLog log)
    {
        long count = 0;
        try (ExcerptTailer tailer = log.queue().createTailer())
        {
            while (true)
            {
                try (DocumentContext dc = tailer.readingDocument())
                {
                    if (!dc.isPresent())
                    {
                        return count;
                    }
                    if (dc.isData())
                    {
                        count++;
                    }
                }
            }
        }
    }
}
