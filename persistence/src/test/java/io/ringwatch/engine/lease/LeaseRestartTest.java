package io.ringwatch.engine.lease;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.watch.Event;
import io.ringwatch.engine.watch.EventType;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.persistence.LogConfig;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Leases across a restart with the lease timer running, as etcd's lessor {@code Promote} treats a
 * restart: a lease whose deadline passed while the engine was down comes back with its full TTL
 * (it does not expire at recovery), then expires on time as one revision per lease, seen once by a
 * live watcher and the same from the log after a further restart, never replayed as a second
 * revision. An expiry racing {@code close()} is whole or absent after the reopen: a lease lives with
 * all its keys, or is gone with all of them deleted in one revision. The timeout only turns a hang
 * into a failure.
 */
@Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LeaseRestartTest
{
    private static final int ROUNDS = 30;
    private static final int LEASES = 8;

    private final AtomicLong clock = new AtomicLong(1_000_000);

    @ParameterizedTest(name = "{0}")
    @EnumSource(LogConfig.Durability.class)
    void aLeaseDueWhileTheEngineWasDownLivesAFullTtlThenExpiresOnceAsOneRevision(
        final LogConfig.Durability durability, @TempDir final Path dir) throws Exception
    {
        try (RingWatch engine = open(dir, durability))
        {
            engine.leases().grant(7, 10);
            engine.leases().grant(8, 20);
            engine.write(Op.put("b", "2").withLease(7));
            engine.write(Op.put("a", "1").withLease(7));
            engine.write(Op.put("c", "3").withLease(8));
        }
        clock.addAndGet(3_600_000);
        final long expiredAt;
        try (RingWatch engine = open(dir, durability))
        {
            final PullWatcher watcher = engine.watchPull(WatchRequest.of(KeyRange.all()).withPrevKv());
            final long opened = engine.currentRevision();
            assertEquals(10_000, engine.leases().timeToLive(7, false).remainingMillis(), "refreshed to its full TTL at the reopen");
            assertEquals(List.of("a=1 lease 7", "b=2 lease 7", "c=3 lease 8"), LeaseEngines.state(engine),
                "nothing expired at recovery though every deadline had passed");
            clock.addAndGet(10_000);
            final List<Event> deletes = LeasesTest.next(watcher, 2);
            expiredAt = opened + 1;
            assertEquals(List.of(expiredAt + " a prev lease 7", expiredAt + " b prev lease 7"), describe(deletes),
                "the timer ended lease 7 as one revision after the reopen");
            assertArrayEquals(new long[] {8}, engine.leases().leases());
        }
        try (RingWatch engine = open(dir, durability))
        {
            assertEquals(expiredAt, engine.currentRevision(), "recovery replays the expiry, adds no revision");
            assertEquals(List.of("c=3 lease 8"), LeaseEngines.state(engine));
            assertArrayEquals(new long[] {8}, engine.leases().leases());
            final PullWatcher fromTheLog = engine.watchPull(WatchRequest.of(KeyRange.all()).startRevision(1).withPrevKv());
            final List<Event> history = LeasesTest.next(fromTheLog, 5);
            assertEquals(List.of(expiredAt + " a prev lease 7", expiredAt + " b prev lease 7"),
                describe(history.stream().filter(e -> e.type() == EventType.DELETE).toList()), "the same from the log, once");
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(LogConfig.Durability.class)
    void anExpiryRacingCloseIsWholeOrAbsentAfterTheReopen(final LogConfig.Durability durability, @TempDir final Path dir)
        throws Exception
    {
        int endedBefore = 0;
        int livedOn = 0;
        for (int round = 0; round < ROUNDS; round++)
        {
            final String at = "round " + round;
            final Map<Long, List<String>> keysOf = new HashMap<>();
            try (RingWatch engine = open(dir, durability))
            {
                for (int i = 0; i < LEASES; i++)
                {
                    final long lease = engine.leases().grant(1).id();
                    final List<String> keys = new ArrayList<>();
                    for (int k = 0; k < 3; k++)
                    {
                        final String key = "r" + round + "/" + i + "/" + k;
                        engine.write(Op.put(key, "v").withLease(lease));
                        keys.add(key);
                    }
                    keysOf.put(lease, keys);
                }
                // Every lease is due: the timer ends them one command at a time; close runs once a
                // watcher saw the first end, so it lands among the others.
                final PullWatcher watcher = engine.watchPull(WatchRequest.of(KeyRange.prefix("r" + round + "/")));
                clock.addAndGet(1_000);
                LeasesTest.next(watcher, 1);
            }
            try (RingWatch engine = open(dir, durability))
            {
                final long[] live = engine.leases().leases();
                final Map<String, Long> state = new TreeMap<>();
                engine.range(KeyRange.prefix("r" + round + "/"), 0).kvs().forEach(kv -> state.put(kv.keyAsString(), kv.lease()));
                for (final Map.Entry<Long, List<String>> lease : keysOf.entrySet())
                {
                    final boolean lives = Arrays.stream(live).anyMatch(id -> id == lease.getKey());
                    for (final String key : lease.getValue())
                    {
                        assertEquals(lives ? lease.getKey() : null, state.get(key),
                            at + ": lease " + lease.getKey() + (lives ? " lives with every key" : " ended with every key"));
                    }
                    endedBefore += lives ? 0 : 1;
                    livedOn += lives ? 1 : 0;
                }
                final PullWatcher fromTheLog = engine.watchPull(WatchRequest.of(KeyRange.prefix("r" + round + "/")).startRevision(1));
                final List<Event> history = LeasesTest.next(fromTheLog, LEASES * 3 + (LEASES - live.length) * 3);
                final Map<Long, Integer> deletesByRevision = new TreeMap<>();
                history.stream().filter(e -> e.type() == EventType.DELETE)
                    .forEach(e -> deletesByRevision.merge(e.revision(), 1, Integer::sum));
                assertEquals(LEASES - live.length, deletesByRevision.size(), at + ": one revision per ended lease");
                assertTrue(deletesByRevision.values().stream().allMatch(n -> n == 3), at + ": each with all its keys");
                // Whatever survived ends now, so the next round starts from no lease.
                clock.addAndGet(1_000);
                engine.leases().expireDue();
            }
        }
        System.out.printf("%s: expiries racing close: %d leases ended before it, %d lived on%n", durability, endedBefore, livedOn);
    }

    private RingWatch open(final Path dir, final LogConfig.Durability durability)
    {
        return RingWatch.open(RingWatchConfig.builder()
            .persistence(LogConfig.builder(dir).durability(durability).build())
            .leaseClock(clock::get)
            .leaseMinTtlSeconds(1)
            .leaseCheckInterval(Duration.ofMillis(1))
            .build());
    }

    private static List<String> describe(final List<Event> events)
    {
        return events.stream().map(e -> e.revision() + " " + e.kv().keyAsString() + " prev lease " + e.prevKv().lease()).toList();
    }
}
