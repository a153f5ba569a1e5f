package io.ringwatch.engine.lease;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.errors.InvalidRequestException;
import io.ringwatch.engine.errors.KeyNotFoundException;
import io.ringwatch.engine.errors.LeaseExistsException;
import io.ringwatch.engine.errors.LeaseNotFoundException;
import io.ringwatch.engine.errors.LeaseTtlException;
import io.ringwatch.engine.kv.Compare;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.kv.Keys;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.Txn;
import io.ringwatch.engine.watch.Event;
import io.ringwatch.engine.watch.EventType;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.WatchRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Leases as etcd's, on an in-memory engine with a manual clock: no test sleeps for an expiry.
 */
class LeasesTest
{
    private final AtomicLong clock = new AtomicLong(1_000_000);
    private final RingWatch engine = RingWatch.open(RingWatchConfig.builder()
        .leaseClock(clock::get)
        .leaseCheckInterval(Duration.ZERO)
        .leaseMinTtlSeconds(2)
        .build());
    private final Leases leases = engine.leases();

    @AfterEach
    void close()
    {
        engine.close();
    }

    @Test
    void grantChoosesIdsRaisesATtlBelowTheMinimumAndTakesTheCallersId()
    {
        final LeaseGrant first = leases.grant(10);
        final LeaseGrant second = leases.grant(1);
        final LeaseGrant chosen = leases.grant(77, 30);
        assertEquals(1, first.id());
        assertEquals(10, first.ttlSeconds());
        assertEquals(2, second.id());
        assertEquals(2, second.ttlSeconds(), "raised to the minimum TTL, as etcd");
        assertEquals(77, chosen.id());
        assertArrayEquals(new long[] {1, 2, 77}, leases.leases());
        assertEquals(0, engine.currentRevision(), "a grant makes no revision");
    }

    @Test
    void badGrantsAreRefusedWithEtcdsErrorsAndChangeNothing()
    {
        leases.grant(5, 10);
        final LeaseExistsException exists = assertThrows(LeaseExistsException.class, () -> leases.grant(5, 20));
        assertEquals("etcdserver: lease already exists", exists.getMessage());
        assertEquals("etcdserver: too large lease TTL",
            assertThrows(LeaseTtlException.class, () -> leases.grant(Leases.MAX_TTL_SECONDS + 1)).getMessage());
        assertEquals(10, leases.timeToLive(5, false).grantedTtlSeconds());
        assertArrayEquals(new long[] {5}, leases.leases());
        assertEquals("etcdserver: requested lease not found",
            assertThrows(LeaseNotFoundException.class, () -> leases.keepAlive(6)).getMessage());
        assertThrows(LeaseNotFoundException.class, () -> leases.revoke(6));
        assertThrows(LeaseNotFoundException.class, () -> leases.timeToLive(6, true));
    }

    /**
     * etcd's lessor grants any id but 0 (its server picks one only for 0), so a client's negative
     * id is a lease like any other: keys attach to it, compares see it, its revoke deletes them.
     */
    @Test
    void aNegativeIdIsGrantedAttachedComparedAndRevokedAsEtcdDoes()
    {
        assertEquals(-7, leases.grant(-7, 10).id());
        assertThrows(LeaseExistsException.class, () -> leases.grant(-7, 10));
        engine.write(Op.put("n", "1").withLease(-7));
        assertEquals(-7, engine.get("n").orElseThrow().lease());
        assertTrue(engine.txn(Txn.of(List.of(Compare.number(Keys.utf8("n"), Compare.Target.LEASE, Compare.Result.EQUAL, -7)),
            List.of(), List.of())).succeeded());
        assertFalse(engine.txn(Txn.of(List.of(Compare.number(Keys.utf8("n"), Compare.Target.LEASE, Compare.Result.GREATER, -1)),
            List.of(), List.of())).succeeded(), "signed, as etcd compares");
        assertThrows(LeaseNotFoundException.class, () -> engine.write(Op.put("m", "1").withLease(-8)));
        assertArrayEquals(new long[] {-7}, leases.leases());
        leases.revoke(-7);
        assertTrue(engine.get("n").isEmpty());
    }

    @Test
    void aPutAttachesItsKeyAndReadsAndEventsCarryTheLease() throws Exception
    {
        final long lease = leases.grant(10).id();
        final PullWatcher watcher = engine.watchPull(WatchRequest.of(KeyRange.all()).withPrevKv());
        engine.write(Op.put("a", "1").withLease(lease));
        engine.write(Op.put("b", "2"));
        assertEquals(lease, engine.get("a").orElseThrow().lease());
        assertEquals(0, engine.get("b").orElseThrow().lease());
        assertEquals(List.of(lease, 0L), engine.range(KeyRange.all(), 0).kvs().stream().map(KeyValue::lease).toList());
        final List<Event> events = next(watcher, 2);
        assertEquals(lease, events.get(0).kv().lease());
        assertEquals(0, events.get(1).kv().lease());
        assertEquals(List.of("a"), keys(leases.timeToLive(lease, true)));
    }

    @Test
    void aPutWithoutALeaseDetachesTheKeyAndIgnoreLeaseKeepsIt() throws Exception
    {
        final long lease = leases.grant(10).id();
        engine.write(Op.put("a", "1").withLease(lease));
        engine.write(Op.put("a", "2").withIgnoreLease());
        assertEquals(lease, engine.get("a").orElseThrow().lease(), "ignore_lease keeps the key's lease");
        assertEquals("2", engine.get("a").orElseThrow().valueAsString());
        engine.write(Op.put("a", "3"));
        assertEquals(0, engine.get("a").orElseThrow().lease(), "a put without a lease detaches, as etcd");
        assertEquals(List.of(), keys(leases.timeToLive(lease, true)));
        final long revision = engine.currentRevision();
        assertEquals(revision, leases.revoke(lease), "a lease without keys revokes without a revision");
        assertEquals("3", engine.get("a").orElseThrow().valueAsString(), "the detached key stays");
    }

    @Test
    void aPutNamingAnUnknownLeaseOrIgnoringTheLeaseOfAnAbsentKeyChangesNothing()
    {
        engine.put("a", "1");
        final long revision = engine.currentRevision();
        assertThrows(LeaseNotFoundException.class, () -> engine.write(Op.put("a", "2").withLease(99)));
        assertThrows(KeyNotFoundException.class, () -> engine.write(Op.put("b", "2").withIgnoreLease()));
        assertThrows(LeaseNotFoundException.class, () -> engine.txn(Txn.of(List.of(), List.of(
            Op.put("c", "3"), Op.put("d", "4").withLease(99)), List.of())));
        assertEquals(revision, engine.currentRevision());
        assertEquals("1", engine.get("a").orElseThrow().valueAsString());
        assertFalse(engine.get("c").isPresent(), "the transaction's other put did not happen");
        assertThrows(InvalidRequestException.class, () -> Op.put("a", "1").withLease(1).withIgnoreLease());
        assertThrows(InvalidRequestException.class, () -> Op.delete("a").withLease(1));
    }

    @Test
    void revokeDeletesEveryKeyInOneRevisionInKeyOrderWithPrevKv() throws Exception
    {
        final long lease = leases.grant(10).id();
        final long other = leases.grant(10).id();
        engine.write(Op.put("c", "3").withLease(lease));
        engine.write(Op.put("a", "1").withLease(lease));
        engine.write(Op.put("b", "2").withLease(other));
        final PullWatcher watcher = engine.watchPull(WatchRequest.of(KeyRange.all()).withPrevKv());
        final long revoked = leases.revoke(lease);
        assertEquals(4, revoked);
        final List<Event> events = next(watcher, 2);
        assertEquals(List.of("a", "c"), events.stream().map(e -> e.kv().keyAsString()).toList());
        for (final Event event : events)
        {
            assertEquals(EventType.DELETE, event.type());
            assertEquals(revoked, event.revision(), "one revision for the whole lease");
            assertEquals(lease, event.prevKv().lease());
        }
        assertEquals(List.of("b"), engine.range(KeyRange.all(), 0).kvs().stream().map(KeyValue::keyAsString).toList());
        assertThrows(LeaseNotFoundException.class, () -> leases.revoke(lease), "revoked at most once");
        assertArrayEquals(new long[] {other}, leases.leases());
    }

    @Test
    void leasesExpireAtTheClocksTimeAndKeepAliveRenewsThem()
    {
        final long shortLease = leases.grant(5).id();
        final long longLease = leases.grant(10).id();
        engine.write(Op.put("s", "1").withLease(shortLease));
        engine.write(Op.put("l", "1").withLease(longLease));
        clock.addAndGet(4_000);
        assertEquals(0, leases.expireDue());
        assertEquals(1_000, leases.timeToLive(shortLease, false).remainingMillis());
        assertEquals(5, leases.keepAlive(shortLease));
        assertEquals(5, leases.timeToLive(shortLease, false).ttlSeconds());
        clock.addAndGet(4_999);
        assertEquals(0, leases.expireDue(), "renewed at 4 s, due at 9 s");
        clock.addAndGet(1);
        assertThrows(LeaseNotFoundException.class, () -> leases.keepAlive(shortLease), "a lease already due is not renewed");
        assertFalse(engine.get("s").isPresent(), "but ended, as etcd's renewal waits for the revocation");
        assertEquals(1, leases.timeToLive(longLease, false).ttlSeconds());
        assertEquals(0, leases.expireDue());
        assertTrue(engine.get("l").isPresent());
        clock.addAndGet(1_000);
        assertEquals(1, leases.expireDue());
        assertEquals(0, engine.size());
        assertArrayEquals(new long[0], leases.leases());
    }

    @Test
    void theTimerThreadEndsADueLeaseWithoutACall() throws Exception
    {
        try (RingWatch timed = RingWatch.open(RingWatchConfig.builder()
            .name("timed")
            .leaseClock(clock::get)
            .leaseCheckInterval(Duration.ofMillis(1))
            .build()))
        {
            final long lease = timed.leases().grant(5).id();
            timed.write(Op.put("a", "1").withLease(lease));
            final PullWatcher watcher = timed.watchPull(WatchRequest.of(KeyRange.all()));
            clock.addAndGet(5_000);
            final List<Event> events = next(watcher, 1);
            assertEquals(1, events.size(), "the timer's check at the clock's new time ended the lease");
            assertEquals(EventType.DELETE, events.get(0).type());
            assertArrayEquals(new long[0], timed.leases().leases());
        }
    }

    @Test
    void anAsynchronousKeepAliveRenewsOrFailsWithLeaseNotFound() throws Exception
    {
        final long lease = leases.grant(7).id();
        clock.addAndGet(3_000);
        assertEquals(7, leases.keepAliveAsync(lease).get(30, TimeUnit.SECONDS));
        assertEquals(7_000, leases.timeToLive(lease, false).remainingMillis());
        final ExecutionException missing = assertThrows(ExecutionException.class,
            () -> leases.keepAliveAsync(lease + 1).get(30, TimeUnit.SECONDS));
        assertTrue(missing.getCause() instanceof LeaseNotFoundException, missing.toString());
    }

    @Test
    void theAsynchronousFormsGrantReadListAndRevokeAsTheBlockingOnesDo() throws Exception
    {
        final LeaseGrant chosen = leases.grantAsync(0, 1).get(30, TimeUnit.SECONDS);
        assertEquals(2, chosen.ttlSeconds(), "raised to the minimum");
        final LeaseGrant named = leases.grantAsync(40, 10).get(30, TimeUnit.SECONDS);
        assertEquals(40, named.id());
        assertEquals(10, named.ttlSeconds());
        engine.write(Op.put("b", "2").withLease(40));
        engine.write(Op.put("a", "1").withLease(40));
        clock.addAndGet(4_000);

        final LeaseTimeToLive left = leases.timeToLiveAsync(40, true).get(30, TimeUnit.SECONDS);
        assertEquals(6_000, left.remainingMillis());
        assertEquals(List.of("a", "b"), left.keys().stream().map(k -> new String(k, StandardCharsets.UTF_8)).toList());
        assertArrayEquals(new long[] {chosen.id(), 40}, leases.leasesAsync().get(30, TimeUnit.SECONDS));

        final long before = engine.currentRevision();
        assertEquals(before + 1, leases.revokeAsync(40).get(30, TimeUnit.SECONDS), "both keys deleted in one revision");
        assertEquals(0, engine.count(KeyRange.all()));
        assertArrayEquals(new long[] {chosen.id()}, leases.leasesAsync().get(30, TimeUnit.SECONDS));
    }

    @Test
    void theAsynchronousFormsFailWithTypedCausesAndChangeNothing() throws Exception
    {
        final long lease = leases.grant(5, 20).id();
        final long revision = engine.currentRevision();

        assertCause(LeaseExistsException.class, leases.grantAsync(5, 30));
        assertCause(LeaseTtlException.class, leases.grantAsync(0, Leases.MAX_TTL_SECONDS + 1));
        assertCause(LeaseNotFoundException.class, leases.revokeAsync(6));
        assertCause(LeaseNotFoundException.class, leases.timeToLiveAsync(6, true));

        assertArrayEquals(new long[] {lease}, leases.leases());
        assertEquals(20, leases.timeToLive(lease, false).grantedTtlSeconds());
        assertEquals(revision, engine.currentRevision());
    }

    private static void assertCause(final Class<? extends Throwable> type, final CompletableFuture<?> future)
    {
        final ExecutionException failed = assertThrows(ExecutionException.class, () -> future.get(30, TimeUnit.SECONDS));
        assertTrue(type.isInstance(failed.getCause()), failed.toString());
    }

    @Test
    void aTransactionComparesOnTheLeaseAndAttachesInItsOps()
    {
        final long lease = leases.grant(10).id();
        engine.write(Op.put("a", "1").withLease(lease));
        final Txn txn = Txn.of(List.of(Compare.number("a".getBytes(StandardCharsets.UTF_8), Compare.Target.LEASE,
            Compare.Result.EQUAL, lease)), List.of(Op.put("b", "2").withLease(lease), Op.put("a", "9").withIgnoreLease()),
            List.of());
        assertTrue(engine.txn(txn).succeeded());
        assertEquals(lease, engine.get("a").orElseThrow().lease());
        assertEquals(lease, engine.get("b").orElseThrow().lease());
        assertEquals(List.of("a", "b"), keys(leases.timeToLive(lease, true)));
        final Txn absent = Txn.of(List.of(Compare.number("zz".getBytes(StandardCharsets.UTF_8), Compare.Target.LEASE,
            Compare.Result.EQUAL, 0)), List.of(), List.of());
        assertTrue(engine.txn(absent).succeeded(), "an absent key compares as lease 0, as etcd");
    }

    private static List<String> keys(final LeaseTimeToLive ttl)
    {
        return ttl.keys().stream().map(k -> new String(k, StandardCharsets.UTF_8)).toList();
    }

    static List<Event> next(final PullWatcher watcher, final int count) throws InterruptedException
    {
        final List<Event> events = new ArrayList<>();
        final long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (events.size() < count && System.nanoTime() < deadline)
        {
            events.addAll(watcher.next(Duration.ofSeconds(1)).events());
        }
        return events;
    }
}
