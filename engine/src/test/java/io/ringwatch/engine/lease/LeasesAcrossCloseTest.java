package io.ringwatch.engine.lease;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.errors.EngineClosedException;
import io.ringwatch.engine.errors.LeaseNotFoundException;
import io.ringwatch.engine.kv.Op;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Leases and {@code close()}: every lease call after close is refused with
 * {@link EngineClosedException} (the asynchronous forms too, thrown or as their future's cause), and
 * revokes, keep-alives and timer expiries racing a close each either take effect or are refused
 * typed; none hangs, and no future is left uncompleted. The timeout only turns a hang into a
 * failure; no assertion depends on timing.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LeasesAcrossCloseTest
{
    private static final int ROUNDS = 60;

    @Test
    void everyLeaseCallAfterCloseIsRefusedAsClosed() throws Exception
    {
        final RingWatch engine = RingWatch.open(RingWatchConfig.builder().name("closed-leases").build());
        final Leases leases = engine.leases();
        final long lease = leases.grant(60).id();
        engine.close();

        assertThrows(EngineClosedException.class, () -> leases.grant(60));
        assertThrows(EngineClosedException.class, () -> leases.grant(9, 60));
        assertThrows(EngineClosedException.class, () -> leases.keepAlive(lease));
        assertThrows(EngineClosedException.class, () -> leases.revoke(lease));
        assertThrows(EngineClosedException.class, () -> leases.timeToLive(lease, true));
        assertThrows(EngineClosedException.class, leases::leases);
        assertThrows(EngineClosedException.class, leases::expireDue);
        assertClosed(() -> leases.grantAsync(0, 60));
        assertClosed(() -> leases.keepAliveAsync(lease));
        assertClosed(() -> leases.revokeAsync(lease));
        assertClosed(() -> leases.timeToLiveAsync(lease, false));
        assertClosed(leases::leasesAsync);
    }

    @Test
    void revokesKeepAlivesAndExpiriesRacingCloseTakeEffectOrAreRefusedAndNoneHangs() throws Exception
    {
        for (int round = 0; round < ROUNDS; round++)
        {
            final String at = "round " + round;
            final AtomicLong clock = new AtomicLong(1_000_000);
            final RingWatch engine = RingWatch.open(RingWatchConfig.builder().name("close-race-" + round)
                .leaseClock(clock::get).leaseCheckInterval(Duration.ofMillis(1)).leaseMinTtlSeconds(1).build());
            final Leases leases = engine.leases();
            final int count = 40;
            final long[] ids = new long[count];
            for (int i = 0; i < count; i++)
            {
                ids[i] = leases.grant(i % 2 == 0 ? 1 : 600).id();
                engine.write(Op.put(at + "/" + i + "/a", "v").withLease(ids[i]));
                engine.write(Op.put(at + "/" + i + "/b", "v").withLease(ids[i]));
            }
            final List<CompletableFuture<Long>> renewals = new ArrayList<>();
            final AtomicReference<Throwable> unexpected = new AtomicReference<>();
            final Thread revoker = new Thread(() -> untilClosed(unexpected, () ->
            {
                for (int i = 1; i < count; i += 2)
                {
                    leases.revoke(ids[i]);
                }
            }));
            final Thread keeper = new Thread(() -> untilClosed(unexpected, () ->
            {
                for (int pass = 0; ; pass++)
                {
                    final CompletableFuture<Long> renewal = leases.keepAliveAsync(ids[pass % count]);
                    synchronized (renewals)
                    {
                        renewals.add(renewal);
                    }
                }
            }));
            revoker.start();
            keeper.start();
            clock.addAndGet(1_000);
            engine.close();
            revoker.join(TimeUnit.SECONDS.toMillis(60));
            keeper.join(TimeUnit.SECONDS.toMillis(60));
            assertFalse(revoker.isAlive() || keeper.isAlive(), at + ": a lease call hung across close");
            assertNull(unexpected.get(), at + ": only a typed refusal");
            synchronized (renewals)
            {
                for (final CompletableFuture<Long> renewal : renewals)
                {
                    try
                    {
                        final long ttl = renewal.get(60, TimeUnit.SECONDS);
                        assertTrue(ttl == 1 || ttl == 600, at + ": renewed to its lease's TTL, not " + ttl);
                    }
                    catch (final ExecutionException e)
                    {
                        assertTrue(e.getCause() instanceof LeaseNotFoundException || e.getCause() instanceof EngineClosedException,
                            at + ": " + e.getCause());
                    }
                }
            }
            assertThrows(EngineClosedException.class, () -> leases.keepAlive(ids[0]), at);
        }
    }

    /** Runs {@code calls} until the engine refuses one as closed; anything else but a lease not found is kept. */
    private static void untilClosed(final AtomicReference<Throwable> unexpected, final Runnable calls)
    {
        while (true)
        {
            try
            {
                calls.run();
            }
            catch (final EngineClosedException e)
            {
                return;
            }
            catch (final LeaseNotFoundException e)
            {
                // Revoked or expired already: go on until the close.
            }
            catch (final Throwable t)
            {
                unexpected.compareAndSet(null, t);
                return;
            }
        }
    }

    private static void assertClosed(final Supplier<CompletableFuture<?>> call) throws InterruptedException
    {
        try
        {
            final CompletableFuture<?> future = call.get();
            final ExecutionException refused = assertThrows(ExecutionException.class, () -> future.get(30, TimeUnit.SECONDS));
            assertTrue(refused.getCause() instanceof EngineClosedException, refused.toString());
        }
        catch (final EngineClosedException expected)
        {
            // Refused on the caller's thread, as the synchronous forms are.
        }
    }
}
