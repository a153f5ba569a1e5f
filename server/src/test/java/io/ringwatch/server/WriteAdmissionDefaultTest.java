package io.ringwatch.server;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.persistence.LogConfig;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Write admission is on by default only where a lagging watch would otherwise be cancelled: in memory.
 */
class WriteAdmissionDefaultTest
{
    @TempDir
    Path dir;

    @Test
    void heldByDefaultInMemoryOnlyAndAsSetWhenSet()
    {
        try (RingWatch memory = RingWatch.open(RingWatchConfig.defaults());
            RingWatch persistent = RingWatch.open(RingWatchConfig.builder().persistence(LogConfig.builder(dir).build()).build()))
        {
            final ServerOptions unset = ServerOptions.builder().build();
            assertTrue(unset.writeAdmission(memory), "in memory a lagging watch has only the window");
            assertFalse(unset.writeAdmission(persistent), "a persistent engine's watches catch up from the log");

            final ServerOptions on = ServerOptions.builder().writeAdmission(true).build();
            assertTrue(on.writeAdmission(memory));
            assertTrue(on.writeAdmission(persistent));
            final ServerOptions off = ServerOptions.builder().writeAdmission(false).build();
            assertFalse(off.writeAdmission(memory));
            assertFalse(off.writeAdmission(persistent));
        }
    }
}
