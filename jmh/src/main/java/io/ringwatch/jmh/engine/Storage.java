package io.ringwatch.jmh.engine;

import io.ringwatch.persistence.LogConfig;

/**
 * Where a {@link WriteEngineState} engine keeps its revisions.
 */
public enum Storage
{
    /** In memory only: no revision log. */
    MEMORY(null),
    /** A revision log; a put is acknowledged once appended. */
    ASYNC(LogConfig.Durability.ASYNC),
    /** A revision log; a put is acknowledged once the log is forced to disk. */
    SYNC(LogConfig.Durability.SYNC);

    private final LogConfig.Durability durability;

    Storage(final LogConfig.Durability durability)
    {
        this.durability = durability;
    }

    /**
     * @return the revision log's durability, or null in memory.
     */
    LogConfig.Durability durability()
    {
        return durability;
    }
}
