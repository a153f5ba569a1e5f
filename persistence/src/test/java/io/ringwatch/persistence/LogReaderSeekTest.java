package io.ringwatch.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Random;

import net.openhft.chronicle.queue.rollcycles.TestRollCycles;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogReaderSeekTest
{
    @TempDir
    Path dir;

    @Test
    void seekFindsEveryRevisionAcrossRollCycleFiles()
    {
        final long seed = System.nanoTime();
        final Random random = new Random(seed);
        final long[] now = {1_700_000_000_000L};
        final LogConfig config = LogConfig.builder(dir).rollCycle(TestRollCycles.TEST_SECONDLY)
            .clockMillis(() -> now[0]).blockSize(1 << 20).build();
        final TestRevisions revisions = new TestRevisions();
        final int total = 600;
        try (RevisionLog log = RevisionLog.open(config))
        {
            for (long r = 1; r <= total; r++)
            {
                // Every 150th revision starts a new cycle, so the log always spans several files;
                // the random jumps add cycles of varying length (and gaps of empty cycles) between them.
                if (r % 150 == 0 || random.nextInt(100) == 0)
                {
                    now[0] += 1_000 * (1 + random.nextInt(3));
                }
                revisions.write(log, r);
            }
            assertTrue(log.queue().lastCycle() - log.queue().firstCycle() >= 3, "the test needs several cycle files");
            try (LogReader reader = log.reader())
            {
                final RevisionRecord record = new RevisionRecord();
                for (int i = 0; i < 100; i++)
                {
                    final long target = 1 + random.nextInt(total);
                    assertTrue(reader.seek(target), "seek " + target + " seed " + seed);
                    assertTrue(reader.next(record), "read " + target + " seed " + seed);
                    TestRevisions.check(record, target);
                    if (target < total)
                    {
                        assertTrue(reader.next(record));
                        assertEquals(target + 1, record.revision(), "seed " + seed);
                    }
                }
                assertTrue(reader.seek(1));
                assertTrue(reader.seek(total));
                assertFalse(reader.seek(total + 1), "a revision not yet written");
                assertThrows(IllegalArgumentException.class, () -> reader.seek(0));
            }
        }
    }

    @Test
    void seekOnAnEmptyLogFindsNothing()
    {
        try (RevisionLog log = RevisionLog.open(LogConfig.builder(dir).build());
            LogReader reader = log.reader())
        {
            assertFalse(reader.seek(1));
            assertFalse(reader.next(new RevisionRecord()));
        }
    }
}
