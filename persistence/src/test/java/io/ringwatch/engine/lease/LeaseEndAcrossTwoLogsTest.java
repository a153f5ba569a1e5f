package io.ringwatch.engine.lease;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.errors.JournalFailedException;
import io.ringwatch.engine.errors.LeaseNotFoundException;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.persistence.LogConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A lease's end writes to two files: the deletes of its keys as a revision in the revision log, the
 * end itself in the lease log. When the journal fails between the two (either one refuses its
 * write: a full disk, an I/O error, the process dying there), the caller gets a typed error and,
 * after a reopen, nothing changed: the lease lives with every key it had, no key names a lease that
 * recovery does not know, and the lease still ends later as one revision. Before the end went to the
 * lease log first (and recovery learned to void an end whose revision the log lacks), a failing
 * lease log left the keys deleted and the lease alive: a revoke half done though refused.
 */
class LeaseEndAcrossTwoLogsTest
{
    private static final long LEASE = 7;

    private final AtomicLong clock = new AtomicLong(1_000_000);

    static Stream<Arguments> cases()
    {
        return Stream.of(LogConfig.Durability.SYNC, LogConfig.Durability.ASYNC).flatMap(durability ->
            Stream.of("recordLeaseRevoke", "appendRevision").flatMap(failing ->
                Stream.of(Arguments.of(durability, failing, false), Arguments.of(durability, failing, true))));
    }

    @ParameterizedTest(name = "{0}, {1} fails, expiry {2}")
    @MethodSource("cases")
    void anEndRefusedBetweenTheTwoLogsChangesNothingAfterAReopen(
        final LogConfig.Durability durability, final String failing, final boolean expiry, @TempDir final Path dir)
    {
        final long before;
        final AtomicBoolean armed = new AtomicBoolean();
        try (RingWatch engine = open(dir, durability, failing, armed))
        {
            final Leases leases = engine.leases();
            leases.grant(LEASE, 60);
            engine.write(Op.put("a", "1").withLease(LEASE));
            engine.write(Op.put("b", "2").withLease(LEASE));
            engine.write(Op.put("c", "3"));
            before = engine.currentRevision();
            armed.set(true);
            if (expiry)
            {
                clock.addAndGet(60_000);
                assertThrows(JournalFailedException.class, leases::expireDue);
            }
            else
            {
                assertThrows(JournalFailedException.class, () -> leases.revoke(LEASE));
            }
        }
        try (RingWatch engine = open(dir, durability, null, null))
        {
            assertUnchanged(engine, before);
            engine.write(Op.put("d", "4"));
        }
        try (RingWatch engine = open(dir, durability, null, null))
        {
            // Revision before + 1 is now the put of d: an end recorded for it must not come back.
            assertEquals(List.of("a=1 lease 7", "b=2 lease 7", "c=3 lease 0", "d=4 lease 0"), LeaseEngines.state(engine));
            assertArrayEquals(new long[] {LEASE}, engine.leases().leases());
            assertEquals(before + 2, engine.leases().revoke(LEASE), "the end is still one revision");
            assertEquals(List.of("c=3 lease 0", "d=4 lease 0"), LeaseEngines.state(engine));
        }
        try (RingWatch engine = open(dir, durability, null, null))
        {
            assertArrayEquals(new long[0], engine.leases().leases());
            assertEquals(List.of("c=3 lease 0", "d=4 lease 0"), LeaseEngines.state(engine));
        }
    }

    @Test
    void anEndVoidedRightAfterTheLeaseLogWasRewrittenStillFindsItsGrant(@TempDir final Path dir)
    {
        final AtomicBoolean armed = new AtomicBoolean();
        try (RingWatch engine = open(dir, LogConfig.Durability.ASYNC, "appendRevision", armed))
        {
            final Leases leases = engine.leases();
            leases.grant(LEASE, 60);
            engine.write(Op.put("a", "1").withLease(LEASE));
            // 1 + 2 x 2048 = 4097 records, one lease live: the next record rewrites the file first.
            for (long id = 100; id < 100 + 2048; id++)
            {
                leases.grant(id, 60);
                leases.revoke(id);
            }
            armed.set(true);
            assertThrows(JournalFailedException.class, () -> leases.revoke(LEASE));
        }
        try (RingWatch engine = open(dir, LogConfig.Durability.ASYNC, null, null))
        {
            assertArrayEquals(new long[] {LEASE}, engine.leases().leases());
            assertEquals(60, engine.leases().timeToLive(LEASE, false).grantedTtlSeconds(),
                "its own grant, not a key's lease restored at the minimum TTL");
            assertEquals(List.of("a=1 lease 7"), LeaseEngines.state(engine));
        }
    }

    @Test
    void aGrantTheLeaseLogRefusesIsNotThereAfterAReopen(@TempDir final Path dir)
    {
        final AtomicBoolean armed = new AtomicBoolean(true);
        try (RingWatch engine = open(dir, LogConfig.Durability.SYNC, "recordLeaseGrant", armed))
        {
            assertThrows(JournalFailedException.class, () -> engine.leases().grant(LEASE, 60));
            assertThrows(JournalFailedException.class, () -> engine.write(Op.put("a", "1").withLease(LEASE)));
        }
        try (RingWatch engine = open(dir, LogConfig.Durability.SYNC, null, null))
        {
            assertArrayEquals(new long[0], engine.leases().leases());
            assertThrows(LeaseNotFoundException.class, () -> engine.write(Op.put("a", "1").withLease(LEASE)));
            assertEquals(List.of(), LeaseEngines.state(engine));
        }
    }

    private void assertUnchanged(final RingWatch engine, final long before)
    {
        assertEquals(before, engine.currentRevision(), "the refused end made no revision");
        assertArrayEquals(new long[] {LEASE}, engine.leases().leases(), "the lease lives");
        assertEquals(List.of("a=1 lease 7", "b=2 lease 7", "c=3 lease 0"), LeaseEngines.state(engine), "its keys live");
        assertEquals(List.of("a", "b"), engine.leases().timeToLive(LEASE, true).keys().stream()
            .map(k -> new String(k, StandardCharsets.UTF_8)).toList());
    }

    private RingWatch open(final Path dir, final LogConfig.Durability durability, final String failing, final AtomicBoolean armed)
    {
        final LogConfig log = LogConfig.builder(dir).durability(durability).build();
        return LeaseEngines.open(failing == null ? log : name -> FailingJournal.failing(log.openJournal(name), failing, armed), clock);
    }
}
