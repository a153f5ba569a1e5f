package io.ringwatch.engine.lease;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.persistence.LogConfig;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Leases survive a restart: grants, each key's lease (from the log, and from a snapshot), revokes
 * and expiries; after recovery every lease has its full TTL again (etcd refreshes them), counted
 * from the time of the reopen.
 */
class LeasePersistenceTest
{
    private final AtomicLong clock = new AtomicLong(1_000_000);

    @ParameterizedTest(name = "snapshot every {0} revisions")
    @ValueSource(longs = {0, 2})
    void grantsAttachmentsRevokesAndExpiriesSurviveARestartAndTtlsAreRefreshed(final long snapshotEvery, @TempDir final Path dir)
    {
        try (RingWatch engine = open(dir, snapshotEvery))
        {
            final Leases leases = engine.leases();
            assertEquals(1, leases.grant(10).id());
            assertEquals(2, leases.grant(20).id());
            assertEquals(3, leases.grant(30).id());
            assertEquals(50, leases.grant(50, 5).id());
            leases.grant(60, 40);
            engine.write(Op.put("a", "1").withLease(1));
            engine.write(Op.put("b", "2").withLease(2));
            engine.write(Op.put("c", "3"));
            engine.write(Op.put("d", "4").withLease(50));
            engine.write(Op.put("e", "5").withLease(60));
            engine.write(Op.put("e", "6").withIgnoreLease());
            leases.revoke(2);
            leases.revoke(3);
            clock.addAndGet(5_000);
            assertEquals(1, leases.expireDue(), "lease 50 expires and takes d with it");
            clock.addAndGet(4_000);
            leases.keepAlive(1);
        }
        clock.addAndGet(60_000);
        try (RingWatch engine = open(dir, snapshotEvery))
        {
            final Leases leases = engine.leases();
            assertArrayEquals(new long[] {1, 60}, leases.leases());
            assertEquals(List.of("a=1 lease 1", "c=3 lease 0", "e=6 lease 60"),
                engine.range(KeyRange.all(), 0).kvs().stream().map(LeasePersistenceTest::describe).toList());
            final LeaseTimeToLive one = leases.timeToLive(1, true);
            assertEquals(10, one.grantedTtlSeconds());
            assertEquals(10_000, one.remainingMillis(), "refreshed to the full TTL at recovery, not expired on the spot");
            assertEquals(List.of("a"), keys(one));
            assertEquals(List.of("e"), keys(leases.timeToLive(60, true)));
            assertEquals(0, leases.expireDue());
            clock.addAndGet(10_000);
            assertEquals(1, leases.expireDue());
            assertFalse(engine.get("a").isPresent());
            assertEquals(61, leases.grant(0, 10).id(), "after a restart the engine chooses above the highest live id");
        }
    }

    @ParameterizedTest(name = "snapshot every {0} revisions")
    @ValueSource(longs = {0, 2})
    void anIdRevokedOrExpiredBeforeARestartIsNeverGrantedAgain(final long snapshotEvery, @TempDir final Path dir)
    {
        try (RingWatch engine = open(dir, snapshotEvery))
        {
            final Leases leases = engine.leases();
            assertEquals(1, leases.grant(1_000).id());
            assertEquals(2, leases.grant(10).id());
            assertEquals(3, leases.grant(10).id());
            engine.write(Op.put("k", "v").withLease(3));
            leases.revoke(2);
            clock.addAndGet(11_000);
            assertEquals(1, leases.expireDue(), "lease 3 expires");
        }
        try (RingWatch engine = open(dir, snapshotEvery))
        {
            final Leases leases = engine.leases();
            assertArrayEquals(new long[] {1}, leases.leases());
            assertEquals(4, leases.grant(10).id(), "a client may still hold 2 or 3 from before the restart");
            leases.revoke(4);
        }
        try (RingWatch engine = open(dir, snapshotEvery))
        {
            assertEquals(5, engine.leases().grant(10).id());
        }
    }

    private RingWatch open(final Path dir, final long snapshotEvery)
    {
        return RingWatch.open(RingWatchConfig.builder()
            .persistence(LogConfig.builder(dir).durability(LogConfig.Durability.SYNC).build())
            .snapshotEveryRevisions(snapshotEvery)
            .leaseClock(clock::get)
            .leaseCheckInterval(Duration.ZERO)
            .build());
    }

    private static String describe(final KeyValue kv)
    {
        return kv.keyAsString() + "=" + kv.valueAsString() + " lease " + kv.lease();
    }

    private static List<String> keys(final LeaseTimeToLive ttl)
    {
        return ttl.keys().stream().map(k -> new String(k, StandardCharsets.UTF_8)).toList();
    }
}
