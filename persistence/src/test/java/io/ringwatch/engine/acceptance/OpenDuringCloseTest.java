package io.ringwatch.engine.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.persistence.LogConfig;
import io.ringwatch.persistence.LogLockedException;
import io.ringwatch.persistence.RevisionLog;
import io.ringwatch.persistence.VerifyReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A second owner opening the directory again and again while the first closes (with writes,
 * leases and a snapshot still going when the close begins), as a restarting service's new
 * instance does while the old one shuts down: each try is refused with {@code LogLockedException}
 * until the close has released the directory, then the open succeeds with every revision the
 * first acknowledged, the first's close completes, and the log verifies. Six ASYNC rounds then six
 * SYNC on one directory (50 each with {@code -Dringwatch.long=true}). Passed on first writing; kept
 * as a guard.
 */
class OpenDuringCloseTest
{
    private static final int ROUNDS = Scenario.LONG ? 50 : 6;

    @TempDir
    Path dir;

    private RingWatchConfig config(final boolean sync)
    {
        return RingWatchConfig.builder()
            .persistence(LogConfig.builder(dir).durability(sync ? LogConfig.Durability.SYNC : LogConfig.Durability.ASYNC).build())
            .snapshotEveryRevisions(500).build();
    }

    @Test
    void aSecondOwnerOpensOnlyOnceTheFirstHasClosedAndFindsEverything() throws Exception
    {
        long acknowledged = 0;
        RingWatch owner = RingWatch.open(config(false));
        for (int round = 0; round < 2 * ROUNDS; round++)
        {
            final boolean sync = round >= ROUNDS;
            final RingWatch first = owner;
            final long lease = first.leases().grant(600).id();
            final Semaphore inFlight = new Semaphore(64);
            final java.util.concurrent.atomic.AtomicLong acked = new java.util.concurrent.atomic.AtomicLong(acknowledged);
            for (int i = 0; i < 1_000; i++)
            {
                inFlight.acquireUninterruptibly();
                first.writeAsync(Op.put("/k/" + i % 100, "r" + round + "-" + i).withLease(i % 3 == 0 ? lease : 0))
                    .whenComplete((r, t) ->
                    {
                        if (r != null)
                        {
                            acked.accumulateAndGet(r.revision(), Math::max);
                        }
                        inFlight.release();
                    });
            }
            final CompletableFuture<Void> closing = CompletableFuture.runAsync(first::close);
            final AtomicInteger refused = new AtomicInteger();
            RingWatch second = null;
            while (second == null)
            {
                try
                {
                    second = RingWatch.open(config(sync));
                }
                catch (final LogLockedException held)
                {
                    refused.incrementAndGet();
                    Thread.onSpinWait();
                }
            }
            closing.join();
            acknowledged = acked.get();
            final String context = "round " + round + " (" + refused.get() + " refused tries)";
            assertTrue(second.currentRevision() >= acknowledged, context + ": acknowledged " + acknowledged + ", opened at "
                + second.currentRevision());
            assertTrue(second.leases().timeToLive(lease, true).keys().size() > 0, context + ": the lease lost its keys");
            owner = second;
        }
        final long last = owner.currentRevision();
        owner.close();
        try (RevisionLog log = RevisionLog.openReadOnly(dir))
        {
            final VerifyReport report = log.verify();
            assertTrue(report.ok(), report::toString);
            assertEquals(last, report.lastRevision());
        }
    }
}
