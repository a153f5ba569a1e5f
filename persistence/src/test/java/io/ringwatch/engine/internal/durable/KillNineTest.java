package io.ringwatch.engine.internal.durable;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.persistence.LogConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Crash recovery with a real SIGKILL: a child JVM writes in SYNC mode and prints every
 * acknowledged revision, and every revision a watcher or a reader saw; the test kills it at a
 * random moment, reopens the directory, and checks that every acknowledged revision and every
 * revision anyone saw survived (SYNC shows nothing before it is durable) and that the state is
 * exactly what the writes up to the recovered revision make. Several rounds on one directory, so later rounds recover from
 * fuzzy snapshots taken while writing plus the log after them, and from torn last excerpts.
 * Seeded ({@code -Dringwatch.seed}); {@code -Dringwatch.long=true} runs many more rounds.
 */
class KillNineTest
{
    private static final int ROUNDS = Boolean.getBoolean("ringwatch.long") ? 40 : 3;

    @Test
    void noAcknowledgedRevisionIsLostAndTheStateIsExact(@TempDir final Path dir) throws Exception
    {
        final long seed = Long.getLong("ringwatch.seed", System.nanoTime());
        final Random random = new Random(seed);
        long acknowledged = 0;
        for (int round = 0; round < ROUNDS; round++)
        {
            final int killAfter = 50 + random.nextInt(400);
            final long[] seen = new long[1];
            acknowledged = Math.max(acknowledged, runAndKill(dir, killAfter, 40 + random.nextInt(200), seed, seen));
            final RingWatch engine = RingWatch.open(RingWatchConfig.builder()
                .persistence(LogConfig.builder(dir).durability(LogConfig.Durability.SYNC).build())
                .snapshotEveryRevisions(0)
                .build());
            try
            {
                final long recovered = engine.currentRevision();
                assertTrue(recovered >= acknowledged,
                    "seed " + seed + " round " + round + ": acknowledged " + acknowledged + " but recovered " + recovered);
                assertTrue(recovered >= seen[0],
                    "seed " + seed + " round " + round + ": a watcher or reader saw " + seen[0] + " but recovered " + recovered);
                assertEquals(expectedState(recovered), actualState(engine.range(KeyRange.all(), 0).kvs()),
                    "seed " + seed + " round " + round + ": state at revision " + recovered);
                acknowledged = recovered;
            }
            finally
            {
                engine.close();
            }
        }
    }

    /**
     * Starts the writer, kills it with SIGKILL after {@code killAfter} acknowledgements, returns the
     * newest one; {@code seen[0]} receives the newest revision a watcher or reader saw.
     */
    private static long runAndKill(
        final Path dir, final int killAfter, final int snapshotEvery, final long seed, final long[] seen) throws Exception
    {
        final Process child = ChildJvm.start(CrashingWriter.class, dir.toString(), Integer.toString(snapshotEvery));
        final long[] acksAndLast = ChildJvm.killAfterAcks(child, killAfter, line -> noteSeen(line, seen));
        final long acks = acksAndLast[0];
        final long last = acksAndLast[1];
        assertTrue(acks == killAfter, "seed " + seed + ": the child stopped after " + acks + " acknowledgements");
        return last;
    }

    private static void noteSeen(final String line, final long[] seen)
    {
        if (line.startsWith("seen ") || line.startsWith("read "))
        {
            seen[0] = Math.max(seen[0], Long.parseLong(line.substring(5)));
        }
    }

    private static TreeMap<String, String> expectedState(final long revision)
    {
        final TreeMap<String, String> state = new TreeMap<>();
        for (long n = 1; n <= revision; n++)
        {
            state.put("k" + n % CrashingWriter.KEYS, "v" + n);
        }
        return state;
    }

    private static TreeMap<String, String> actualState(final List<KeyValue> kvs)
    {
        final TreeMap<String, String> state = new TreeMap<>();
        for (final KeyValue kv : kvs)
        {
            state.put(kv.keyAsString(), new String(kv.value(), StandardCharsets.UTF_8));
        }
        return state;
    }
}
