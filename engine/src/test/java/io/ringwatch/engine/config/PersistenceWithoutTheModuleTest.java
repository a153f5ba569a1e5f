package io.ringwatch.engine.config;

import io.ringwatch.engine.errors.InvalidRequestException;
import io.ringwatch.engine.errors.PersistenceUnavailableException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The engine's own test class path holds no persistence implementation (the engine depends on
 * none), which is what a user who forgot the dependency has: asking for persistence by directory
 * is a typed error naming the artifact to add, and changes nothing.
 */
class PersistenceWithoutTheModuleTest
{
    @TempDir
    Path dir;

    @Test
    void persistenceByDirectoryWithoutAnImplementationNamesTheDependencyToAdd() throws Exception
    {
        final RingWatchConfig.Builder builder = RingWatchConfig.builder();
        final Path data = dir.resolve("data");

        final PersistenceUnavailableException e =
            assertThrows(PersistenceUnavailableException.class, () -> builder.persistence(data));

        assertTrue(e.getMessage().contains("io.ringwatch:ringwatch-persistence"), e.getMessage());
        assertEquals("io.ringwatch:ringwatch-persistence", PersistenceUnavailableException.ARTIFACT);
        assertNull(builder.build().persistence(), "the builder stays in memory");
        assertTrue(Files.notExists(data), "nothing created");
    }

    @Test
    void aNullDirectoryIsRefused()
    {
        assertThrows(InvalidRequestException.class, () -> RingWatchConfig.builder().persistence((Path)null));
    }
}
