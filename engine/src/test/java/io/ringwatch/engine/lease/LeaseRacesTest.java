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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Leases raced by other callers, as etcd's lessor is (its known bugs: a put attaching a key to a
 * lease revoked at the same instant left a key no lease would ever delete; a keep-alive renewing a
 * lease being revoked). Nothing here depends on timing: each race is run many times and every
 * outcome is checked against what must hold whichever side wins. Waits are liveness bounds.
 */
class LeaseRacesTest
{
    private static final int ROUNDS = 200;
    private static final long PATIENCE_SECONDS = 60;

    private final AtomicLong clock = new AtomicLong(1_000_000);
    private final RingWatch engine = RingWatch.open(RingWatchConfig.builder()
        .leaseClock(clock::get)
        .leaseCheckInterval(Duration.ofMillis(1))
        .leaseMinTtlSeconds(2)
        .build());
    private final Leases leases = engine.leases();

    @AfterEach
    void close()
    {
        engine.close();
    }

    @Test
    void putsAndKeepAlivesRacingARevokeNeverLeaveAKeyOrALeaseBehind() throws Exception
    {
        for (int round = 0; round < ROUNDS; round++)
        {
            final long lease = leases.grant(3_600).id();
            final String prefix = "r" + round + "/";
            final AtomicReference<Throwable> putEnd = new AtomicReference<>();
            final AtomicReference<Throwable> keepAliveEnd = new AtomicReference<>();
            final Thread putter = new Thread(() -> putEnd.set(untilRefused(i -> engine.write(Op.put(prefix + i, "v").withLease(lease)))));
            final Thread keeper = new Thread(() -> keepAliveEnd.set(untilRefused(i -> leases.keepAlive(lease))));
            putter.start();
            keeper.start();
            engine.write(Op.put(prefix + "first", "v").withLease(lease));
            final long revoked = leases.revoke(lease);
            putter.join(TimeUnit.SECONDS.toMillis(PATIENCE_SECONDS));
            keeper.join(TimeUnit.SECONDS.toMillis(PATIENCE_SECONDS));

            assertTrue(putEnd.get() instanceof LeaseNotFoundException, "round " + round + ": puts end refused: " + putEnd.get());
            assertTrue(keepAliveEnd.get() instanceof LeaseNotFoundException, "round " + round + ": keep-alives end refused: " + keepAliveEnd.get());
            assertEquals(0, engine.count(KeyRange.prefix(prefix)),
                "round " + round + ": no key attached before the revoke (at " + revoked + ") outlives it, none attached after");
            assertThrows(LeaseNotFoundException.class, () -> leases.timeToLive(lease, true));
        }
        assertArrayEquals(new long[0], leases.leases());
    }

    @Test
    void aLeaseExpiresOnTimeWhileProducersKeepTheWriteRingFull() throws Exception
    {
        final long lease = leases.grant(2).id();
        engine.write(Op.put("leased/a", "1").withLease(lease));
        engine.write(Op.put("leased/b", "1").withLease(lease));
        final PullWatcher watcher = engine.watchPull(WatchRequest.of(KeyRange.prefix("leased/")));
        final AtomicBoolean stop = new AtomicBoolean();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final List<Thread> producers = new ArrayList<>();
        for (int p = 0; p < 3; p++)
        {
            final int producer = p;
            final Thread thread = new Thread(() -> produce(producer, stop, failure));
            producers.add(thread);
            thread.start();
        }
        try
        {
            clock.addAndGet(2_000);
            final List<Event> events = new ArrayList<>();
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(PATIENCE_SECONDS);
            while (events.size() < 2 && System.nanoTime() < deadline)
            {
                events.addAll(watcher.next(Duration.ofSeconds(1)).events());
            }
            assertEquals(List.of("leased/a", "leased/b"), events.stream().map(e -> e.kv().keyAsString()).toList(),
                "the timer's expiry got through the full ring");
            assertTrue(events.stream().allMatch(e -> e.type() == EventType.DELETE && e.revision() == events.get(0).revision()),
                "one revision of deletes");
        }
        finally
        {
            stop.set(true);
            for (final Thread thread : producers)
            {
                thread.join(TimeUnit.SECONDS.toMillis(PATIENCE_SECONDS));
            }
        }
        assertNull(failure.get(), "every producer's write was answered");
        assertArrayEquals(new long[0], leases.leases());
        assertEquals(0, engine.count(KeyRange.prefix("leased/")));
    }

    /** Keeps 1,024 writes of its own in flight until told to stop, then waits for their answers. */
    private void produce(final int producer, final AtomicBoolean stop, final AtomicReference<Throwable> failure)
    {
        final Semaphore inFlight = new Semaphore(1_024);
        long n = 0;
        try
        {
            while (!stop.get())
            {
                inFlight.acquire();
                final CompletableFuture<?> write = engine.writeAsync(Op.put("w" + producer + "/" + (n++ % 1_000), "v"));
                write.whenComplete((result, error) ->
                {
                    if (error != null)
                    {
                        failure.compareAndSet(null, error);
                    }
                    inFlight.release();
                });
            }
            assertTrue(inFlight.tryAcquire(1_024, PATIENCE_SECONDS, TimeUnit.SECONDS), "the writes in flight were answered");
        }
        catch (final InterruptedException | RuntimeException | AssertionError e)
        {
            failure.compareAndSet(null, e);
        }
    }

    /** Calls {@code call} with 0, 1, 2, ... until it throws; returns what it threw. */
    private static Throwable untilRefused(final IntCall call)
    {
        for (int i = 0; ; i++)
        {
            try
            {
                call.run(i);
            }
            catch (final RuntimeException e)
            {
                return e;
            }
        }
    }

    /** A call that may throw; its argument counts the calls made. */
    @FunctionalInterface
    private interface IntCall
    {
        void run(int i);
    }
}
