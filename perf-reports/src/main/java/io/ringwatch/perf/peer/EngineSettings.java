package io.ringwatch.perf.peer;

import java.nio.file.Path;

/**
 * How the RingWatch peer is configured. Immutable; thread-safe.
 *
 * @param writerWait       the writer thread's wait strategy.
 * @param dispatcherIdle   the dispatcher threads' idle strategy.
 * @param deliveryIdle     the delivery threads' (and pull pollers') idle strategy.
 * @param dispatchers      dispatcher threads.
 * @param deliveryThreads  delivery threads for push watchers.
 * @param pollers          harness threads that drain pull watchers.
 * @param writeMode        async or blocking puts.
 * @param persistence      the durability asked for.
 * @param dataDir          where a persistent engine keeps its log; null when none is given.
 * @param writeRingSize    the write ring's slots, or 0 for the engine's default.
 */
public record EngineSettings(
    WriterWait writerWait,
    ThreadIdle dispatcherIdle,
    ThreadIdle deliveryIdle,
    int dispatchers,
    int deliveryThreads,
    int pollers,
    WriteMode writeMode,
    Persistence persistence,
    Path dataDir,
    int writeRingSize)
{
    /**
     * Settings with the engine's default write ring.
     *
     * @param writerWait      the writer thread's wait strategy.
     * @param dispatcherIdle  the dispatcher threads' idle strategy.
     * @param deliveryIdle    the delivery threads' (and pull pollers') idle strategy.
     * @param dispatchers     dispatcher threads.
     * @param deliveryThreads delivery threads for push watchers.
     * @param pollers         harness threads that drain pull watchers.
     * @param writeMode       async or blocking puts.
     * @param persistence     the durability asked for.
     * @param dataDir         where a persistent engine keeps its log; null when none is given.
     */
    public EngineSettings(
        final WriterWait writerWait,
        final ThreadIdle dispatcherIdle,
        final ThreadIdle deliveryIdle,
        final int dispatchers,
        final int deliveryThreads,
        final int pollers,
        final WriteMode writeMode,
        final Persistence persistence,
        final Path dataDir)
    {
        this(writerWait, dispatcherIdle, deliveryIdle, dispatchers, deliveryThreads, pollers, writeMode, persistence, dataDir, 0);
    }

    /**
     * @param mode      the durability of the copy.
     * @param directory where the copy keeps its log; null in memory.
     * @return these settings with another durability and log directory.
     */
    public EngineSettings withPersistence(final Persistence mode, final Path directory)
    {
        return new EngineSettings(writerWait, dispatcherIdle, deliveryIdle, dispatchers, deliveryThreads, pollers, writeMode,
            mode, directory, writeRingSize);
    }

    /**
     * @return a one-line description for reports.
     */
    public String describe()
    {
        return "writer " + name(writerWait) + ", " + dispatchers + " dispatcher(s) " + name(dispatcherIdle) + ", " +
            deliveryThreads + " delivery thread(s) " + name(deliveryIdle) + ", " + name(writeMode) + " puts, persistence " +
            name(persistence) + (writeRingSize == 0 ? "" : ", write ring " + writeRingSize);
    }

    private static String name(final Enum<?> value)
    {
        return value.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
}
