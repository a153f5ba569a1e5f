package io.ringwatch.engine.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.errors.LeaseNotFoundException;
import io.ringwatch.engine.internal.durable.ChildJvm;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kill -9 of an ASYNC engine whose 1 s leases expire and are revoked all the time
 * ({@link ExpiringLeasesWriter}), at a random moment, several rounds on one directory. After each
 * reopen a lease the child saw end (revoked, or not found) stays ended with none of its keys, every
 * lease that lives holds exactly its three keys and every lease that does not holds none (an end cut
 * short by the kill leaves the lease with its keys, never half), and the leases that live expire
 * after the reopen, their keys deleted (the README: full TTL again from the reopen, then expiry).
 */
class LeaseExpiryKillNineTest
{
    private static final int ROUNDS = Boolean.getBoolean("ringwatch.long") ? 10 : 2;

    @Test
    void endedLeasesStayEndedAndLiveOnesExpireAfterTheReopen(@TempDir final Path dir) throws Exception
    {
        final long seed = Long.getLong("ringwatch.seed", System.nanoTime());
        final Random random = new Random(seed);
        for (int round = 0; round < ROUNDS; round++)
        {
            // Per round: an ended lease's id may be granted again later (etcd's ids may be, too).
            final Set<Long> gone = new HashSet<>();
            final Set<Long> granted = new HashSet<>();
            final String at = "seed " + seed + " round " + round;
            final Process child = ChildJvm.start(ExpiringLeasesWriter.class, dir.toString(), Long.toString(seed + round));
            final long[] acks = ChildJvm.killAfterAcks(child, 100 + random.nextInt(200), line ->
            {
                if (line.startsWith("gone "))
                {
                    gone.add(Long.parseLong(line.substring(5)));
                }
                else if (line.startsWith("lease "))
                {
                    granted.add(Long.parseLong(line.substring(6)));
                }
            });
            assertTrue(acks[0] > 0, at + ": the child acknowledged nothing");
            try (RingWatch engine = RingWatch.open(ExpiringLeasesWriter.config(dir)))
            {
                assertTrue(engine.currentRevision() >= acks[1], at + ": acknowledged " + acks[1]);
                final Set<Long> alive = new HashSet<>();
                for (final long id : engine.leases().leases())
                {
                    alive.add(id);
                }
                for (final long id : gone)
                {
                    assertTrue(!alive.contains(id), at + ": lease " + id + " ended before the kill and lives again");
                }
                for (final long id : granted)
                {
                    final List<String> keys = keys(engine, id);
                    if (alive.contains(id))
                    {
                        assertEquals(List.of("a", "b", "c"), keys, at + ": the keys of live lease " + id);
                        assertEquals(List.of("a", "b", "c"), ttlKeys(engine, id), at + ": timeToLive's keys of " + id);
                    }
                    else
                    {
                        assertEquals(List.of(), keys, at + ": keys of ended lease " + id);
                    }
                }
                // Full TTL from the reopen, then expiry: every lease ends within a few seconds, keys and all.
                final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (engine.leases().leases().length > 0 && System.nanoTime() < deadline)
                {
                    Thread.sleep(20);
                }
                assertEquals(0, engine.leases().leases().length, at + ": leases outlived their TTL after the reopen");
                for (final long id : alive)
                {
                    assertThrows(LeaseNotFoundException.class, () -> engine.leases().timeToLive(id, false));
                    assertEquals(List.of(), keys(engine, id), at + ": keys of lease " + id + " after it expired");
                }
            }
        }
    }

    private static List<String> keys(final RingWatch engine, final long id)
    {
        final String prefix = "/l/" + id + "/";
        final List<String> keys = new ArrayList<>();
        for (final KeyValue kv : engine.range(KeyRange.prefix(prefix), 0).kvs())
        {
            assertEquals(id, kv.lease(), kv.keyAsString());
            keys.add(kv.keyAsString().substring(prefix.length()));
        }
        return keys;
    }

    private static List<String> ttlKeys(final RingWatch engine, final long id)
    {
        final List<String> keys = new ArrayList<>();
        for (final byte[] key : engine.leases().timeToLive(id, true).keys())
        {
            keys.add(new String(key, java.nio.charset.StandardCharsets.UTF_8).substring(("/l/" + id + "/").length()));
        }
        return keys;
    }
}
