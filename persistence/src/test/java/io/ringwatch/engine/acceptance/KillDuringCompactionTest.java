package io.ringwatch.engine.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.internal.durable.ChildJvm;
import io.ringwatch.persistence.RevisionLog;
import io.ringwatch.persistence.VerifyReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kill -9 of a SYNC engine that compacts every 64 writes, snapshots every 400 revisions and rolls its
 * log every 100 writes with retention deleting files behind the compaction point ({@link CompactingWriter}),
 * at a random acknowledgement, several rounds on one directory. Every reopen must succeed (in
 * particular the open's check for cycle files missing from the middle must not take a kill during
 * retention's deletions for one), hold every acknowledged revision with exactly the state the writes
 * make, a compaction point not past the recovered revision, and a log that verifies. Seeded
 * ({@code -Dringwatch.seed}); {@code -Dringwatch.long=true} runs more rounds. Passed on first
 * writing; kept as a guard.
 */
class KillDuringCompactionTest
{
    private static final int ROUNDS = Scenario.LONG ? 12 : 1;
    private static final long T0 = System.currentTimeMillis();

    @TempDir
    Path dir;

    @Test
    void aKillWhileCompactionAndRetentionRunLosesNothingAcknowledgedAndReopens() throws Exception
    {
        final long seed = Long.getLong("ringwatch.seed", System.nanoTime());
        final Random random = new Random(seed);
        long acknowledged = 0;
        for (int round = 0; round < ROUNDS; round++)
        {
            final String context = "seed " + seed + " round " + round;
            final Path errors = Files.createTempFile("compacting-writer", ".err");
            // Each round's clock starts far past the last one's (a round writes under an hour of it).
            final long clockStart = T0 + round * 10_000_000L;
            final Process child = ChildJvm.start(ProcessBuilder.Redirect.to(errors.toFile()), CompactingWriter.class, dir.toString(),
                Long.toString(clockStart));
            final long[] acks = ChildJvm.killAfterAcks(child, 1_500 + random.nextInt(1_500), line -> { });
            assertTrue(acks[0] > 0, () -> context + ": the child acknowledged nothing: " + read(errors));
            Files.delete(errors);
            acknowledged = Math.max(acknowledged, acks[1]);
            final long recovered;
            try (RingWatch engine = RingWatch.open(CompactingWriter.config(dir, () -> clockStart + 9_000_000L)))
            {
                recovered = engine.currentRevision();
                assertTrue(recovered >= acknowledged, context + ": acknowledged " + acknowledged + ", recovered " + recovered);
                assertTrue(engine.compactRevision() <= recovered, context + ": compacted past the recovered revision");
                assertTrue(engine.compactRevision() > 0, context + ": the child never compacted");
                for (int key = 0; key < CompactingWriter.KEYS; key++)
                {
                    // The newest write n <= recovered with n % KEYS == key.
                    final long n = recovered - Math.floorMod(recovered - key, CompactingWriter.KEYS);
                    if (n >= 1)
                    {
                        assertEquals("v" + n, engine.get("k" + key).orElseThrow().valueAsString(), context + ": key " + key);
                    }
                }
            }
            try (RevisionLog log = RevisionLog.openReadOnly(dir))
            {
                final VerifyReport report = log.verify();
                assertTrue(report.ok(), () -> context + ": " + report);
                assertEquals(recovered, report.lastRevision(), context);
                assertTrue(report.firstRevision() > 1, () -> context + ": retention deleted nothing: " + report);
            }
            acknowledged = recovered;
        }
    }

    private static String read(final Path file)
    {
        try
        {
            return Files.readString(file);
        }
        catch (final java.io.IOException e)
        {
            return e.toString();
        }
    }
}
