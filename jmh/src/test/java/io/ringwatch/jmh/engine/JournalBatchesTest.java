package io.ringwatch.jmh.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.persistence.LogConfig;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JournalBatchesTest
{
    @TempDir
    Path directory;

    @Test
    void countsTheRevisionsAndFlushesOfASyncEngineSinceTheMark()
    {
        final RingWatchConfig config = RingWatchConfig.builder()
            .persistence(LogConfig.builder(directory).durability(LogConfig.Durability.SYNC).build())
            .snapshotEveryRevisions(0)
            .build();
        try (RingWatch engine = RingWatch.open(config))
        {
            final JournalBatches batches = new JournalBatches(engine.stats());
            engine.put("before", "the mark");
            batches.mark();
            // One blocking producer: each put is a batch of its own, forced before it returns.
            for (int i = 0; i < 3; i++)
            {
                engine.put("key" + i, "value");
            }
            assertEquals("(journal: 3 revisions in 3 forced flushes, 1.0 per flush) ", batches.sinceMark());
            batches.mark();
            assertEquals("(journal: 0 revisions in 0 forced flushes, 0.0 per flush) ", batches.sinceMark());
        }
    }
}
