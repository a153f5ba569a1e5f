package io.ringwatch.engine.internal.history;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.internal.index.IndexArgumentException;
import io.ringwatch.engine.internal.index.IndexDump;
import io.ringwatch.engine.internal.index.OffHeapIndex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Replay through the reader thread and its ring recovers exactly what applying the log change by
 * change on one thread does, for rings small enough that the reader waits for the applies at every
 * batch; what the reader throws comes out of recovery unchanged; the reader thread never outlives
 * recovery, whether it ends, the reader fails or an apply fails.
 */
class ReplayReadAheadTest
{
    private static final long SEED = 16;
    private static final int WRITES = 1_500;

    @ParameterizedTest(name = "{0} batches of {1} changes")
    @CsvSource({"1, 1", "2, 1", "2, 3", "4, 7", "16, 256", "1, 2000"})
    void everyRingShapeRecoversWhatAChangeByChangeReplayDoes(final int ringBatches, final int batchChanges)
    {
        final InMemoryJournal journal = writtenJournal();
        try (OffHeapIndex expected = new OffHeapIndex(16); OffHeapIndex recovered = new OffHeapIndex(16))
        {
            final long expectedRevision = ChangeByChangeReplay.replay(journal, expected);

            assertEquals(expectedRevision, Recovery.recover(journal, recovered, ringBatches, batchChanges));

            assertEquals(IndexDump.dump(expected), IndexDump.dump(recovered));
            assertEquals(expected.size(), recovered.size());
        }
        assertFalse(ChangeByChangeReplay.readerThreadAlive());
    }

    @Test
    void whatTheReaderThrowsIsThrownAsItWasAndTheReaderThreadIsGone()
    {
        final InMemoryJournal journal = writtenJournal();
        final IllegalStateException failure = new IllegalStateException("an excerpt that fails to decode");
        journal.failReadsAt(WRITES / 2, failure);
        try (OffHeapIndex index = new OffHeapIndex(16))
        {
            assertSame(failure, assertThrows(IllegalStateException.class, () -> Recovery.recover(journal, index, 2, 3)));
        }
        assertFalse(ChangeByChangeReplay.readerThreadAlive());
    }

    @Test
    void aFailedApplyStopsTheReaderWhileItWaitsForRoom()
    {
        final InMemoryJournal journal = writtenJournal();
        journal.invalidVersionAt(10);
        try (OffHeapIndex index = new OffHeapIndex(16))
        {
            assertThrows(IndexArgumentException.class, () -> Recovery.recover(journal, index, 1, 1));
        }
        assertFalse(ChangeByChangeReplay.readerThreadAlive());
    }

    /** A journal of puts of varied sizes and deletes (none among the first 20 writes), over fewer keys than writes. */
    private static InMemoryJournal writtenJournal()
    {
        final InMemoryJournal journal = new InMemoryJournal(2 * WRITES, true);
        try (RingWatch engine = RingWatch.open(RingWatchConfig.builder().persistence(name -> journal).build()))
        {
            final Random random = new Random(SEED);
            for (int i = 0; i < WRITES; i++)
            {
                final String key = "k" + random.nextInt(WRITES / 5);
                if (i >= 20 && random.nextInt(6) == 0)
                {
                    engine.delete(key);
                }
                else
                {
                    engine.put(key, "v" + i + "-".repeat(random.nextInt(300)));
                }
            }
        }
        return journal;
    }

}
