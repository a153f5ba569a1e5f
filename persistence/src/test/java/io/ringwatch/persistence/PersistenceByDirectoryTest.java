package io.ringwatch.persistence;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.kv.KeyValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

/**
 * With this module on the class path, {@code RingWatchConfig.builder().persistence(directory)}
 * finds the Chronicle Queue revision log through {@link java.util.ServiceLoader}: one line of
 * configuration, one dependency, and the engine recovers what it wrote after a restart.
 */
class PersistenceByDirectoryTest
{
    @TempDir
    Path dir;

    @Test
    void aDirectoryAloneGivesTheRevisionLogWithItsDefaults()
    {
        final LogConfig log = assertInstanceOf(LogConfig.class, RingWatchConfig.builder().persistence(dir).build().persistence());

        assertEquals(dir, log.directory());
        assertEquals(LogConfig.Durability.ASYNC, log.durability());
    }

    @Test
    void anEngineWithPersistenceByDirectoryRecoversAfterARestart()
    {
        try (RingWatch engine = RingWatch.open(RingWatchConfig.builder().persistence(dir).build()))
        {
            engine.put("k", "v1");
            engine.put("k", "v2");
        }
        try (RingWatch engine = RingWatch.open(RingWatchConfig.builder().persistence(dir).build()))
        {
            final KeyValue kv = engine.get("k").orElseThrow();

            assertEquals(2, engine.currentRevision());
            assertEquals("v2", new String(kv.value(), StandardCharsets.UTF_8));
        }
    }
}
