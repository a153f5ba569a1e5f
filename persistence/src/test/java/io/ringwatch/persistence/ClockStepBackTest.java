package io.ringwatch.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import net.openhft.chronicle.queue.rollcycles.TestRollCycles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The wall clock steps back across a roll boundary (NTP correcting a clock that ran fast around
 * midnight with the default daily cycle; a host rebooted after a crash with its clock behind): the
 * log must go on appending, in the running engine and after a reopen, and lose nothing. Before,
 * Chronicle's appender went back to the previous cycle file, which the roll had ended, and every
 * append failed ({@code WriteAfterEOFException}): the running engine refused every later write,
 * and the reopen after a kill failed appending its revision bump.
 */
class ClockStepBackTest
{
    @TempDir
    Path dir;

    private final AtomicLong now = new AtomicLong(1_700_000_000_000L);

    private RingWatchConfig config()
    {
        return RingWatchConfig.builder()
            .persistence(LogConfig.builder(dir).rollCycle(TestRollCycles.TEST_SECONDLY).clockMillis(now::get).build())
            .snapshotEveryRevisions(0)
            .build();
    }

    @Test
    void aRunningEngineGoesOnAppendingWhenTheClockStepsBack()
    {
        try (RingWatch engine = RingWatch.open(config()))
        {
            engine.put("a", "1");
            now.addAndGet(5_000);
            engine.put("a", "2");
            now.addAndGet(-3_000);
            engine.put("a", "3");
            engine.put("b", "1");
        }
        try (RingWatch engine = RingWatch.open(config()))
        {
            assertEquals(4, engine.currentRevision());
            assertEquals("3", engine.get("a").orElseThrow().valueAsString());
            engine.put("a", "4");
        }
    }

    @Test
    void aReopenWithTheClockBehindTheLastCycleFileAppends()
    {
        try (RingWatch engine = RingWatch.open(config()))
        {
            engine.put("a", "1");
            now.addAndGet(5_000);
            engine.put("a", "2");
        }
        now.addAndGet(-3_000);
        try (RingWatch engine = RingWatch.open(config()))
        {
            assertEquals(2, engine.currentRevision());
            engine.put("a", "3");
        }
        try (RingWatch engine = RingWatch.open(config()))
        {
            assertEquals(3, engine.currentRevision());
            assertEquals("3", engine.get("a").orElseThrow().valueAsString());
        }
    }
}
