package io.ringwatch.engine.acceptance;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.persistence.LogConfig;

/**
 * What the acceptance scenarios share: the three kinds of engine a user can open, liveness waits
 * (a safety net against hangs, never a measure of speed) and a heap measurement after GC.
 */
final class Scenario
{
    /** How long a scenario waits for something that must happen; generous for a loaded 2-core VM. */
    static final Duration PATIENCE = Duration.ofSeconds(60);

    /** Whether the long variants run ({@code -Dringwatch.long=true}). */
    static final boolean LONG = Boolean.getBoolean("ringwatch.long");

    private Scenario()
    {
    }

    /** The kinds of engine a new user opens. */
    enum Mode
    {
        MEMORY, ASYNC, SYNC;

        /**
         * @param dir where a persistent engine keeps its log.
         * @return a builder for this kind of engine, with no snapshots.
         */
        RingWatchConfig.Builder builder(final Path dir)
        {
            final RingWatchConfig.Builder builder = RingWatchConfig.builder();
            if (this != MEMORY)
            {
                builder.persistence(LogConfig.builder(dir.resolve("log"))
                    .durability(this == SYNC ? LogConfig.Durability.SYNC : LogConfig.Durability.ASYNC).build())
                    .snapshotEveryRevisions(0);
            }
            return builder;
        }
    }

    /**
     * Waits until {@code condition} holds, failing after {@link #PATIENCE}.
     *
     * @param condition what must come to hold.
     * @param what      what it means, for the failure message.
     */
    static void await(final BooleanSupplier condition, final String what)
    {
        await(condition, PATIENCE, what);
    }

    /**
     * Waits until {@code condition} holds, failing after {@link #PATIENCE}.
     *
     * @param condition what must come to hold.
     * @param what      what it means, for the failure message, computed only on failure.
     */
    static void await(final BooleanSupplier condition, final Supplier<String> what)
    {
        final long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() > deadline)
            {
                throw new AssertionError("timed out after " + PATIENCE.toSeconds() + " s waiting for " + what.get());
            }
            LockSupport.parkNanos(2_000_000);
        }
    }

    /**
     * Waits until {@code condition} holds, failing after {@code patience}.
     *
     * @param condition what must come to hold.
     * @param patience  the longest to wait.
     * @param what      what it means, for the failure message.
     */
    static void await(final BooleanSupplier condition, final Duration patience, final String what)
    {
        final long deadline = System.nanoTime() + patience.toNanos();
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() > deadline)
            {
                throw new AssertionError("timed out after " + patience.toSeconds() + " s waiting for " + what);
            }
            try
            {
                Thread.sleep(2);
            }
            catch (final InterruptedException e)
            {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for " + what);
            }
        }
    }

    /**
     * @return heap bytes in use after full collections (several, so that reference processing
     * and finalizers run).
     */
    static long heapAfterGc()
    {
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 4; i++)
        {
            System.gc();
            try
            {
                Thread.sleep(50);
            }
            catch (final InterruptedException e)
            {
                Thread.currentThread().interrupt();
            }
            used = Math.min(used, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
        }
        return used;
    }
}
