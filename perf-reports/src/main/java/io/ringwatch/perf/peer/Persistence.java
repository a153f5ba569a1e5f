package io.ringwatch.perf.peer;

import io.ringwatch.engine.RingWatchConfig;

import java.nio.file.Path;

/**
 * The durability a RingWatch run asks for: none (in memory), async (the revision log is written
 * behind the writer) or sync (a write is acknowledged once its log entry is on disk).
 *
 * <p>{@link #applyTo} is the one seam between the harness and the engine's persistence: when the
 * engine's configuration gains a data directory and a durability, it sets them there and nothing
 * else in the harness changes. Until then only {@link #NONE} runs.
 */
public enum Persistence
{
    /** In memory only. */
    NONE,
    /** Revision log written asynchronously. */
    ASYNC,
    /** Revision log on disk before a write is acknowledged. */
    SYNC;

    /**
     * Configures an engine for this durability. Any thread; allocates nothing.
     *
     * @param builder the engine configuration being built.
     * @param dataDir where the revision log lives; may be null for {@link #NONE}.
     * @throws PersistenceUnavailableException for {@link #ASYNC} and {@link #SYNC}: this build of
     *                                         the engine has no revision log.
     */
    public void applyTo(final RingWatchConfig.Builder builder, final Path dataDir)
    {
        if (this != NONE)
        {
            throw new PersistenceUnavailableException(this);
        }
    }
}
