package io.ringwatch.perf.peer;

import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.persistence.LogConfig;

import java.nio.file.Path;
import java.util.Locale;

/**
 * The durability a RingWatch run asks for: none (in memory), async (the revision log is written
 * behind the writer; a write is acknowledged after its append) or sync (acknowledged once its
 * log entry is forced to disk, one msync per writer batch).
 *
 * <p>{@link #applyTo} is the one seam between the harness and the engine's persistence.
 */
public enum Persistence
{
    /** In memory only. */
    NONE,
    /** Revision log, acknowledged after the append. */
    ASYNC,
    /** Revision log on disk before a write is acknowledged. */
    SYNC;

    /**
     * Configures an engine for this durability. Any thread; allocates the log configuration.
     *
     * @param builder the engine configuration being built.
     * @param dataDir where the revision log lives; may be null for {@link #NONE}.
     * @throws IllegalArgumentException for {@link #ASYNC} and {@link #SYNC} without a data directory.
     */
    public void applyTo(final RingWatchConfig.Builder builder, final Path dataDir)
    {
        if (this == NONE)
        {
            return;
        }
        if (dataDir == null)
        {
            throw new IllegalArgumentException("persistence " + name().toLowerCase(Locale.ROOT) + " needs --data-dir");
        }
        builder.persistence(LogConfig.builder(dataDir)
            .durability(this == SYNC ? LogConfig.Durability.SYNC : LogConfig.Durability.ASYNC)
            .build());
    }
}
