package io.ringwatch.engine.lease;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.errors.LeaseNotFoundException;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.persistence.LogConfig;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Revokes, keep-alives and expiries of the same leases racing from several threads, with unrelated
 * writes in between: every lease ends exactly once (one successful revoke or one expiry, never
 * both), in one revision of its own, a keep-alive of a lease already due is refused, and after a
 * reopen no lease and no key of one is left. The ring orders them; this checks that nothing outside
 * it (the lease log, the futures) counts an end twice.
 */
class RevokeRacingExpiryTest
{
    private static final int LEASES = 200;

    private final AtomicLong clock = new AtomicLong(1_000_000);

    @ParameterizedTest
    @EnumSource(LogConfig.Durability.class)
    void everyLeaseEndsExactlyOnceInOneRevision(final LogConfig.Durability durability, @TempDir final Path dir)
    {
        final long before;
        try (RingWatch engine = open(dir, durability))
        {
            final Leases leases = engine.leases();
            for (int id = 1; id <= LEASES; id++)
            {
                leases.grant(id, 10);
                engine.write(Op.put("a" + id, "1").withLease(id));
                engine.write(Op.put("b" + id, "2").withLease(id));
            }
            engine.write(Op.put("plain", "p"));
            before = engine.currentRevision();
            clock.addAndGet(10_000);
            final AtomicInteger revoked = new AtomicInteger();
            final AtomicInteger expired = new AtomicInteger();
            final AtomicInteger refusedRenewals = new AtomicInteger();
            final List<CompletableFuture<Void>> racers = new ArrayList<>();
            for (int t = 0; t < 2; t++)
            {
                final int from = t;
                racers.add(CompletableFuture.runAsync(() ->
                {
                    for (int id = 1 + from; id <= LEASES; id++)
                    {
                        try
                        {
                            leases.revoke(id);
                            revoked.incrementAndGet();
                        }
                        catch (final LeaseNotFoundException gone)
                        {
                            // Ended by the other racer or by an expiry first.
                        }
                        try
                        {
                            leases.keepAlive(id);
                        }
                        catch (final LeaseNotFoundException due)
                        {
                            refusedRenewals.incrementAndGet();
                        }
                    }
                }));
            }
            racers.add(CompletableFuture.runAsync(() ->
            {
                for (int i = 0; i < 20; i++)
                {
                    expired.addAndGet(leases.expireDue());
                    engine.write(Op.put("plain", "p" + i));
                }
            }));
            for (final CompletableFuture<Void> racer : racers)
            {
                try
                {
                    racer.join();
                }
                catch (final CompletionException e)
                {
                    throw new AssertionError(e.getCause());
                }
            }
            expired.addAndGet(leases.expireDue());
            assertEquals(LEASES, revoked.get() + expired.get(), "each lease ended once: " + revoked + " revoked, " + expired + " expired");
            assertTrue(refusedRenewals.get() >= LEASES, "a due or ended lease is never renewed");
            assertEquals(before + LEASES + 20, engine.currentRevision(), "one revision per end, one per unrelated put");
            assertArrayEquals(new long[0], leases.leases());
            assertEquals(List.of("plain"), keys(engine));
        }
        try (RingWatch engine = open(dir, durability))
        {
            assertArrayEquals(new long[0], engine.leases().leases());
            assertEquals(List.of("plain"), keys(engine));
            assertThrows(LeaseNotFoundException.class, () -> engine.leases().revoke(1));
        }
    }

    private static List<String> keys(final RingWatch engine)
    {
        return engine.range(KeyRange.all(), 0).kvs().stream().map(KeyValue::keyAsString).toList();
    }

    private RingWatch open(final Path dir, final LogConfig.Durability durability)
    {
        return LeaseEngines.open(LogConfig.builder(dir).durability(durability).build(), clock);
    }
}
