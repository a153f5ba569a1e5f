package io.ringwatch.perf.peer;

import io.ringwatch.engine.RingWatchConfig;
import io.ringwatch.perf.load.Workload;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PersistenceTest
{
    @Test
    void inMemoryConfiguresNothing()
    {
        assertDoesNotThrow(() -> Persistence.NONE.applyTo(RingWatchConfig.builder(), null));
    }

    @Test
    void asyncAndSyncSayThisBuildHasNoPersistence()
    {
        for (final Persistence mode : new Persistence[] {Persistence.ASYNC, Persistence.SYNC})
        {
            final PersistenceUnavailableException e = assertThrows(PersistenceUnavailableException.class,
                () -> mode.applyTo(RingWatchConfig.builder(), Path.of("/tmp/data")));
            assertTrue(e.getMessage().startsWith("persistence not available in this build"), e.getMessage());
        }
    }

    @Test
    void theEngineConfigurationGoesThroughTheSeam()
    {
        final EngineSettings settings = new EngineSettings(WriterWait.YIELDING, ThreadIdle.BACKOFF, ThreadIdle.BACKOFF,
            1, 1, 1, WriteMode.ASYNC, Persistence.SYNC, Path.of("/tmp/data"));

        assertThrows(PersistenceUnavailableException.class,
            () -> RingWatchPeer.config(settings, new Workload(10, 16, 8, 2, 1, 0)));
    }
}
