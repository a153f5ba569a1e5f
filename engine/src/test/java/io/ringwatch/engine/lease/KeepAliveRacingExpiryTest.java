package io.ringwatch.engine.lease;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.errors.LeaseNotFoundException;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.watch.Event;
import io.ringwatch.engine.watch.EventType;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.WatchRequest;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A keep-alive arriving as its lease expires (etcd's lessor makes such a renewal wait for the
 * revocation, so "lease not found" means the keys are gone): it either renews the lease, whose keys
 * then stay, or is refused, and then the lease's keys are already deleted, in one revision, seen
 * once by watchers. Never a refusal that leaves the keys, never a renewal of an ended lease.
 */
class KeepAliveRacingExpiryTest
{
    private static final int ROUNDS = 500;
    private static final long TTL_SECONDS = 2;

    @Test
    void aKeepAliveOfADueLeaseIsRefusedOnlyAfterItsKeysAreDeletedInOneRevision() throws Exception
    {
        final AtomicLong clock = new AtomicLong(1_000_000);
        try (RingWatch engine = RingWatch.open(RingWatchConfig.builder()
            .leaseClock(clock::get).leaseCheckInterval(Duration.ZERO).leaseMinTtlSeconds(1).build()))
        {
            final Leases leases = engine.leases();
            final long lease = leases.grant(TTL_SECONDS).id();
            engine.write(Op.put("k/a", "1").withLease(lease));
            engine.write(Op.put("k/b", "1").withLease(lease));
            final PullWatcher watcher = engine.watchPull(WatchRequest.of(KeyRange.prefix("k/")).withPrevKv());
            clock.addAndGet(TTL_SECONDS * 1_000);

            assertThrows(LeaseNotFoundException.class, () -> leases.keepAlive(lease));
            assertEquals(0, engine.count(KeyRange.prefix("k/")), "refused: its keys are already gone");
            assertThrows(LeaseNotFoundException.class, () -> leases.timeToLive(lease, false));
            assertEquals(0, leases.expireDue(), "the refused keep-alive ended it; nothing left to expire");
            final List<Event> events = drain(watcher, 2);
            assertEquals(List.of("k/a", "k/b"), events.stream().map(e -> e.kv().keyAsString()).toList());
            assertTrue(events.stream().allMatch(e -> e.type() == EventType.DELETE && e.revision() == events.get(0).revision()
                && e.prevKv() != null && e.prevKv().lease() == lease), events::toString);
            final ExecutionException again = assertThrows(ExecutionException.class,
                () -> leases.keepAliveAsync(lease).get(30, TimeUnit.SECONDS));
            assertTrue(again.getCause() instanceof LeaseNotFoundException, "and stays unknown: " + again);
        }
    }

    @Test
    void keepAlivesRacingTheTimerEitherRenewWithTheKeysOrAreRefusedWithoutThem() throws Exception
    {
        final AtomicLong clock = new AtomicLong(1_000_000);
        try (RingWatch engine = RingWatch.open(RingWatchConfig.builder()
            .leaseClock(clock::get).leaseCheckInterval(Duration.ofMillis(1)).leaseMinTtlSeconds(1).build()))
        {
            final Leases leases = engine.leases();
            final PullWatcher watcher = engine.watchPull(WatchRequest.of(KeyRange.prefix("r")));
            int renewed = 0;
            int refused = 0;
            for (int round = 0; round < ROUNDS; round++)
            {
                final String prefix = "r" + round + "/";
                final long lease = leases.grant(TTL_SECONDS).id();
                engine.write(Op.put(prefix + "a", "1").withLease(lease));
                engine.write(Op.put(prefix + "b", "1").withLease(lease));
                // Half a second before the deadline, the clock reaches it while the keep-alive is on
                // its way: stamped before, it renews past the clock's last time; stamped after, it races
                // the timer for the writer. The clock then stays, so a renewed lease stays too.
                clock.addAndGet(TTL_SECONDS * 1_000 - 500);
                final Thread mover = new Thread(() -> clock.addAndGet(500));
                mover.start();
                long ttl;
                try
                {
                    ttl = leases.keepAlive(lease);
                }
                catch (final LeaseNotFoundException e)
                {
                    ttl = -1;
                }
                mover.join();
                final String at = "round " + round;
                if (ttl == TTL_SECONDS)
                {
                    renewed++;
                    assertEquals(2, engine.count(KeyRange.prefix(prefix)), at + ": renewed, its keys stay");
                    assertTrue(leases.timeToLive(lease, false).remainingMillis() > 0, at + ": and lives on");
                    leases.revoke(lease);
                }
                else
                {
                    refused++;
                    assertEquals(-1, ttl, at);
                    assertEquals(0, engine.count(KeyRange.prefix(prefix)), at + ": refused, so its keys are gone");
                    assertThrows(LeaseNotFoundException.class, () -> leases.timeToLive(lease, false), at);
                }
                final List<Event> events = drain(watcher, 2);
                assertEquals(List.of(prefix + "a", prefix + "b"), events.stream().map(e -> e.kv().keyAsString()).toList(), at);
                assertEquals(events.get(0).revision(), events.get(1).revision(), at + ": one revision");
            }
            System.out.printf("keep-alive racing expiry: %d renewed, %d refused of %d rounds%n", renewed, refused, ROUNDS);
            assertEquals(ROUNDS, renewed + refused);
            assertEquals(0, leases.leases().length);
        }
    }

    private static List<Event> drain(final PullWatcher watcher, final int deletes) throws InterruptedException
    {
        final List<Event> events = new ArrayList<>();
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (events.size() < deletes && System.nanoTime() < deadline)
        {
            for (final Event event : watcher.next(Duration.ofMillis(100)).events())
            {
                if (event.type() == EventType.DELETE)
                {
                    events.add(event);
                }
            }
        }
        return events;
    }
}
