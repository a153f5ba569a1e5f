package io.ringwatch.engine.internal.durable;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.lease.LeaseTimeToLive;
import io.ringwatch.persistence.LogConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Leases under a real SIGKILL (KillNineTest's harness): a child JVM grants leases and puts keys
 * attached to them in SYNC mode, and is killed at a random moment; after each reopen every
 * acknowledged revision is there, every key is on exactly the lease its last write gave it (no
 * attachment lost), every lease lives with exactly its keys, and every TTL is back to its full
 * length (refreshed at recovery, not expired). Several rounds on one directory, so later rounds
 * recover from snapshots taken while writing plus the log after them. Seeded
 * ({@code -Dringwatch.seed}).
 */
class LeaseKillNineTest
{
    private static final int ROUNDS = Boolean.getBoolean("ringwatch.long") ? 20 : 3;

    @Test
    void noAttachmentIsLostAndEveryTtlIsRefreshed(@TempDir final Path dir) throws Exception
    {
        final long seed = Long.getLong("ringwatch.seed", System.nanoTime());
        final Random random = new Random(seed);
        long acknowledged = 0;
        for (int round = 0; round < ROUNDS; round++)
        {
            final String at = "seed " + seed + " round " + round;
            acknowledged = Math.max(acknowledged, runAndKill(dir, 50 + random.nextInt(400), 40 + random.nextInt(200), at));
            try (RingWatch engine = RingWatch.open(RingWatchConfig.builder()
                .persistence(LogConfig.builder(dir).durability(LogConfig.Durability.SYNC).build())
                .snapshotEveryRevisions(0)
                .build()))
            {
                final long recovered = engine.currentRevision();
                assertTrue(recovered >= acknowledged, at + ": acknowledged " + acknowledged + " but recovered " + recovered);
                final TreeMap<String, String> expected = expectedState(recovered);
                final TreeMap<String, String> actual = new TreeMap<>();
                for (final KeyValue kv : engine.range(KeyRange.all(), 0).kvs())
                {
                    actual.put(kv.keyAsString(), kv.valueAsString() + " lease " + kv.lease());
                }
                assertEquals(expected, actual, at + ": state at revision " + recovered);
                assertArrayEquals(LongStream.rangeClosed(1, LeaseCrashingWriter.LEASES).toArray(), engine.leases().leases(), at);
                for (long lease = 1; lease <= LeaseCrashingWriter.LEASES; lease++)
                {
                    final LeaseTimeToLive ttl = engine.leases().timeToLive(lease, true);
                    assertEquals(keysOn(expected, lease), ttl.keys().stream().map(k -> new String(k, StandardCharsets.UTF_8)).toList(),
                        at + ": keys of lease " + lease);
                    assertEquals(LeaseCrashingWriter.TTL_SECONDS, ttl.grantedTtlSeconds(), at);
                    assertTrue(ttl.remainingMillis() > (LeaseCrashingWriter.TTL_SECONDS - 60) * 1000,
                        at + ": lease " + lease + " has " + ttl.remainingMillis() + " ms left: not refreshed at recovery");
                }
                acknowledged = recovered;
            }
        }
    }

    private static long runAndKill(final Path dir, final int killAfter, final int snapshotEvery, final String at) throws Exception
    {
        final Process child = ChildJvm.start(LeaseCrashingWriter.class, dir.toString(), Integer.toString(snapshotEvery));
        final long[] acksAndLast = ChildJvm.killAfterAcks(child, killAfter, line -> { });
        final long acks = acksAndLast[0];
        final long last = acksAndLast[1];
        assertEquals((long)killAfter, acks, at + ": the child stopped early");
        return last;
    }

    /** Key to "value lease id" after the writes up to {@code revision}. */
    private static TreeMap<String, String> expectedState(final long revision)
    {
        final TreeMap<String, String> state = new TreeMap<>();
        for (long n = 1; n <= revision; n++)
        {
            state.put("k" + n % LeaseCrashingWriter.KEYS, "v" + n + " lease " + n % (LeaseCrashingWriter.LEASES + 1));
        }
        return state;
    }

    private static List<String> keysOn(final TreeMap<String, String> state, final long lease)
    {
        final List<String> keys = new ArrayList<>();
        state.forEach((key, value) ->
        {
            if (value.endsWith(" lease " + lease))
            {
                keys.add(key);
            }
        });
        return keys;
    }
}
