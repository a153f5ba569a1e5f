package io.ringwatch.engine.internal.durable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.persistence.LogConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kill -9 while a snapshot is being written: a child JVM ({@link SnapshottingWriter}) holds a large
 * index (100,000 keys, a snapshot of tens of MiB) and snapshots every few thousand revisions while
 * writing in SYNC mode; the test times one snapshot (its temp file's life), then kills the child
 * with SIGKILL at a random point from 0 to 1.25 times that after the next temp file appears (the first
 * round at once): inside the temp file's write, its commit, or the deletion of older snapshots just
 * after. Rounds go on, a few at most, until one kill has left a temp file. Every reopen must succeed
 * (no refusal) with every acknowledged revision and exactly the state the writes up to the recovered
 * revision make. Several rounds on one directory,
 * so later rounds recover from snapshots committed between kills, beside temp files left by kills.
 * Seeded ({@code -Dringwatch.seed}); {@code -Dringwatch.long=true} runs many more rounds. The
 * damaged-newest-snapshot cases (empty, cut short, a bit flipped) are {@link DamagedSnapshotTest}.
 */
class KillDuringSnapshotTest
{
    private static final int ROUNDS = Boolean.getBoolean("ringwatch.long") ? 30 : 2;
    private static final long SNAPSHOT_EVERY = 3_000;
    /** Rounds added while no kill has yet left a snapshot's temp file behind. */
    private static final int EXTRA_ROUNDS = 6;

    @Test
    void aKillWhileASnapshotIsWrittenLosesNoAcknowledgedRevisionAndTheStateIsExact(@TempDir final Path dir) throws Exception
    {
        final long seed = Long.getLong("ringwatch.seed", System.nanoTime());
        final Random random = new Random(seed);
        long acknowledged = 0;
        int killedWithTempFile = 0;
        // The first kill follows the temp file's appearance at once, so it lands inside the write; later
        // ones at random points. A loaded machine can still let a snapshot finish first, so rounds go on
        // (a few at most) until one kill did leave a temp file: the outcome never rests on timing.
        for (int round = 0; round < ROUNDS || killedWithTempFile == 0 && round < ROUNDS + EXTRA_ROUNDS; round++)
        {
            final String context = "seed " + seed + " round " + round;
            final double killAt = round == 0 ? 0.0 : random.nextDouble() * 1.25;
            final long[] acked = runAndKillDuringASnapshot(dir, killAt, context);
            acknowledged = Math.max(acknowledged, acked[0]);
            killedWithTempFile += acked[1] > 0 ? 1 : 0;
            try (RingWatch engine = RingWatch.open(RingWatchConfig.builder()
                .persistence(LogConfig.builder(dir).durability(LogConfig.Durability.SYNC).build())
                .snapshotEveryRevisions(0)
                .build()))
            {
                final long recovered = engine.currentRevision();
                assertTrue(recovered >= acknowledged, context + ": acknowledged " + acknowledged + " but recovered " + recovered);
                checkState(engine, recovered, context);
                acknowledged = recovered;
            }
        }
        assertTrue(killedWithTempFile > 0, "seed " + seed + ": no kill left a snapshot's temp file behind");
    }

    /**
     * Starts the writer, waits for its load, times one snapshot (its temp file's life), then kills
     * it {@code killAt} times that duration after the next snapshot's temp file appears; returns the
     * newest acknowledged revision and whether a temp file was left.
     */
    private static long[] runAndKillDuringASnapshot(final Path dir, final double killAt, final String context)
        throws Exception
    {
        final Set<Path> leftBefore = tempFiles(dir);
        final Path errors = Files.createTempFile("snapshotting-writer", ".err");
        final Process child = ChildJvm.start(ProcessBuilder.Redirect.to(errors.toFile()), SnapshottingWriter.class,
            dir.toString(), Long.toString(SNAPSHOT_EVERY));
        final AtomicLong newestAck = new AtomicLong();
        final AtomicLong ready = new AtomicLong(-1);
        final Thread lines = new Thread(() -> readLines(child, newestAck, ready), "child-lines");
        lines.start();
        try
        {
            // One whole snapshot first, to learn how long one takes here; then a kill at a random
            // point of the next one: inside the temp file's write, its commit, or just after.
            waitForTempFile(child, ready, dir, leftBefore, true, errors, context);
            final long start = System.nanoTime();
            waitForTempFile(child, ready, dir, leftBefore, false, errors, context);
            final long duration = System.nanoTime() - start;
            waitForTempFile(child, ready, dir, leftBefore, true, errors, context);
            LockSupport.parkNanos((long)(duration * killAt));
        }
        finally
        {
            child.toHandle().destroyForcibly();
            assertTrue(child.waitFor(60, TimeUnit.SECONDS), context + ": the child did not die");
            lines.join(TimeUnit.SECONDS.toMillis(60));
        }
        Files.delete(errors);
        return new long[] {newestAck.get(), hasNewTempFile(dir, leftBefore) ? 1 : 0};
    }

    /** Polls (every millisecond, 60 s at most) until a snapshot's temp file exists, or does not. */
    private static void waitForTempFile(final Process child, final AtomicLong ready, final Path dir, final Set<Path> leftBefore,
        final boolean exists, final Path errors, final String context) throws Exception
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (ready.get() < 0 || hasNewTempFile(dir, leftBefore) != exists)
        {
            if (!child.isAlive())
            {
                throw new AssertionError(context + ": the child ended on its own, exit code " + child.waitFor() +
                    ", stderr:\n" + Files.readString(errors));
            }
            assertTrue(System.nanoTime() < deadline, context + ": no snapshot " + (exists ? "started" : "ended") +
                " in 60 s (ready " + ready.get() + ")");
            Thread.sleep(1);
        }
    }

    private static void readLines(final Process child, final AtomicLong newestAck, final AtomicLong ready)
    {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8)))
        {
            String line;
            while ((line = reader.readLine()) != null)
            {
                if (line.startsWith("ack "))
                {
                    newestAck.accumulateAndGet(Long.parseLong(line.substring(4)), Math::max);
                }
                else if (line.startsWith("ready "))
                {
                    ready.set(Long.parseLong(line.substring(6)));
                }
            }
        }
        catch (final IOException ex)
        {
            // The child died: what it printed before is all there is.
        }
    }

    /** Whether a snapshot's temp file exists that is not one of {@code leftBefore} (left by earlier kills). */
    private static boolean hasNewTempFile(final Path dir, final Set<Path> leftBefore) throws IOException
    {
        final Set<Path> now = tempFiles(dir);
        now.removeAll(leftBefore);
        return !now.isEmpty();
    }

    private static Set<Path> tempFiles(final Path dir) throws IOException
    {
        final Path snapshots = dir.resolve("snapshots");
        if (!Files.isDirectory(snapshots))
        {
            return new HashSet<>();
        }
        try (Stream<Path> files = Files.list(snapshots))
        {
            return files.filter(f -> f.getFileName().toString().endsWith(".snap.tmp")).collect(Collectors.toCollection(HashSet::new));
        }
    }

    /** The big keys exactly as loaded, and "k" + n % KEYS = "v" + n for every later revision n up to {@code revision}. */
    private static void checkState(final RingWatch engine, final long revision, final String context)
    {
        final List<KeyValue> big = engine.range(KeyRange.prefix("big/"), 0).kvs();
        assertEquals(SnapshottingWriter.BIG_KEYS, big.size(), context + ": big keys");
        for (int i = 0; i < big.size(); i++)
        {
            assertEquals(SnapshottingWriter.bigKey(i), big.get(i).keyAsString(), context);
            assertArrayEquals(SnapshottingWriter.bigValue(i), big.get(i).value(), context + ": " + SnapshottingWriter.bigKey(i));
        }
        final TreeMap<String, String> expected = new TreeMap<>();
        for (long n = SnapshottingWriter.LOAD_REVISIONS + 1; n <= revision; n++)
        {
            expected.put("k" + n % CrashingWriter.KEYS, "v" + n);
        }
        final TreeMap<String, String> actual = new TreeMap<>();
        for (final KeyValue kv : engine.range(KeyRange.prefix("k"), 0).kvs())
        {
            actual.put(kv.keyAsString(), new String(kv.value(), StandardCharsets.UTF_8));
        }
        assertEquals(expected, actual, context + ": state at revision " + revision);
    }
}
