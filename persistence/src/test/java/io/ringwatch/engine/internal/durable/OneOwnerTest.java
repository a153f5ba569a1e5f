package io.ringwatch.engine.internal.durable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.persistence.LogConfig;
import io.ringwatch.persistence.LogLockedException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two engines on one data directory in one JVM: the second open is refused, naming the holder, and
 * the first keeps acknowledging writes that all survive a restart.
 */
class OneOwnerTest
{
    @TempDir
    Path dir;

    private RingWatch open()
    {
        return RingWatch.open(RingWatchConfig.builder()
            .persistence(LogConfig.builder(dir).durability(LogConfig.Durability.SYNC).build())
            .snapshotEveryRevisions(0)
            .build());
    }

    @Test
    void aSecondEngineOnTheSameDirectoryIsRefusedAndTheFirstLosesNothing()
    {
        try (RingWatch first = open())
        {
            first.put("a", "1");
            final LogLockedException refused = assertThrows(LogLockedException.class, this::open);
            assertTrue(refused.holder().startsWith("pid " + ProcessHandle.current().pid()), refused.getMessage());
            assertEquals(2, first.put("b", "2").revision());
        }
        try (RingWatch reopened = open())
        {
            assertEquals(2, reopened.currentRevision());
            assertEquals("1", new String(reopened.get("a").orElseThrow().value(), StandardCharsets.UTF_8));
            assertEquals("2", new String(reopened.get("b").orElseThrow().value(), StandardCharsets.UTF_8));
        }
    }
}
