package io.ringwatch.persistence;

import io.ringwatch.engine.spi.Persistence;
import io.ringwatch.engine.spi.PersistenceProvider;

import java.nio.file.Path;

/**
 * Registers the Chronicle Queue revision log with {@link java.util.ServiceLoader}, so that
 * {@code RingWatchConfig.builder().persistence(directory)} finds it once this artifact is on the
 * class path. Stateless; any thread.
 */
public final class ChroniclePersistenceProvider implements PersistenceProvider
{
    /** For {@link java.util.ServiceLoader}. */
    public ChroniclePersistenceProvider()
    {
    }

    /**
     * @param directory the data directory.
     * @return {@code LogConfig.builder(directory).build()}: ASYNC, the log's default settings.
     */
    @Override
    public Persistence at(final Path directory)
    {
        return LogConfig.builder(directory).build();
    }
}
