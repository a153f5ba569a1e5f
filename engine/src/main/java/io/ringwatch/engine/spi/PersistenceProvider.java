package io.ringwatch.engine.spi;

import java.nio.file.Path;

/**
 * Found through {@link java.util.ServiceLoader} by {@code RingWatchConfig.Builder.persistence(Path)},
 * so that a user who adds a persistence artifact enables it with one line of configuration, without
 * naming its classes. {@code io.ringwatch:ringwatch-persistence} registers one (its Chronicle Queue
 * revision log) in {@code META-INF/services/io.ringwatch.engine.spi.PersistenceProvider}.
 *
 * <p>Threads: any thread, while a configuration is built. Implementations are stateless.
 */
public interface PersistenceProvider
{
    /**
     * The provider's persistence in {@code directory}, with its default settings.
     *
     * @param directory the data directory; created when the engine opens, if absent.
     * @return the persistence to configure an engine with; opens nothing yet.
     */
    Persistence at(Path directory);
}
