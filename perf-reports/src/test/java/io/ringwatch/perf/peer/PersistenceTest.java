package io.ringwatch.perf.peer;

import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.perf.load.Workload;
import io.ringwatch.persistence.LogConfig;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
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
    void asyncAndSyncConfigureTheRevisionLogWithTheirDurability()
    {
        final RingWatchConfig.Builder async = RingWatchConfig.builder();
        Persistence.ASYNC.applyTo(async, Path.of("/tmp/data-a"));
        final LogConfig asyncLog = (LogConfig)async.build().persistence();
        assertEquals(LogConfig.Durability.ASYNC, asyncLog.durability());
        assertEquals(Path.of("/tmp/data-a"), asyncLog.directory());

        final RingWatchConfig.Builder sync = RingWatchConfig.builder();
        Persistence.SYNC.applyTo(sync, Path.of("/tmp/data-s"));
        assertEquals(LogConfig.Durability.SYNC, ((LogConfig)sync.build().persistence()).durability());
        assertNull(RingWatchConfig.builder().build().persistence());
    }

    @Test
    void persistenceWithoutADataDirectoryIsRefused()
    {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> Persistence.SYNC.applyTo(RingWatchConfig.builder(), null));
        assertTrue(e.getMessage().contains("--data-dir"), e.getMessage());
        final EngineSettings settings = new EngineSettings(WriterWait.YIELDING, ThreadIdle.BACKOFF, ThreadIdle.BACKOFF,
            1, 1, 1, WriteMode.ASYNC, Persistence.ASYNC, null);
        assertThrows(IllegalArgumentException.class, () -> RingWatchPeer.config(settings, new Workload(10, 16, 8, 2, 1, 0)));
    }
}
