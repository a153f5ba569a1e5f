package io.ringwatch.engine.internal.history;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.internal.index.IndexDump;
import io.ringwatch.engine.internal.index.OffHeapIndex;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.Txn;
import io.ringwatch.engine.spi.Journal;
import io.ringwatch.persistence.LogConfig;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Recovery from a Chronicle revision log, through the reader thread and the log's own batch fill
 * (which skips each change's previous value), rebuilds exactly the index that applying the log
 * change by change does: puts with and without leases, transactions of several changes, deletes
 * and range deletes, for a ring that makes the reader wait at every change and for the default one.
 */
class ChronicleReplayTest
{
    private static final long SEED = 27;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} batches of {1} changes")
    @CsvSource({"1, 1", "2, 5", "16, 256"})
    void aRingRecoversFromTheLogWhatAChangeByChangeReplayDoes(final int ringBatches, final int batchChanges)
    {
        final LogConfig log = LogConfig.builder(dir).build();
        write(log);
        try (Journal journal = log.openJournal("replay");
             OffHeapIndex expected = new OffHeapIndex(16);
             OffHeapIndex recovered = new OffHeapIndex(16))
        {
            assertEquals(0, journal.snapshotRevision(), "the whole log is replayed");
            final long expectedRevision = ChangeByChangeReplay.replay(journal, expected);

            assertEquals(expectedRevision, ChangeByChangeReplay.recoverThroughRing(journal, recovered, ringBatches, batchChanges));

            assertEquals(journal.lastRevision(), expectedRevision);
            assertEquals(IndexDump.dump(expected), IndexDump.dump(recovered));
        }
        assertFalse(ChangeByChangeReplay.readerThreadAlive());
    }

    private void write(final LogConfig log)
    {
        try (RingWatch engine = RingWatch.open(RingWatchConfig.builder().persistence(log).snapshotEveryRevisions(0).build()))
        {
            final long lease = engine.leases().grant(600).id();
            final Random random = new Random(SEED);
            for (int i = 0; i < 2_000; i++)
            {
                final String key = "k/" + random.nextInt(300);
                final String value = "v" + i + "-".repeat(random.nextInt(200));
                switch (random.nextInt(10))
                {
                    case 0 -> engine.delete(key);
                    case 1 -> engine.write(Op.put(key, value).withLease(lease));
                    case 2 -> engine.txn(Txn.of(List.of(), txnPuts(random, i), List.of()));
                    case 3 -> engine.delete(KeyRange.prefix("k/1" + random.nextInt(10)));
                    default -> engine.put(key, value);
                }
            }
        }
    }

    private static List<Op> txnPuts(final Random random, final int i)
    {
        final List<Op> puts = new ArrayList<>();
        for (int j = 0; j < 1 + random.nextInt(5); j++)
        {
            puts.add(Op.put("t/" + (5 * random.nextInt(20) + j), "txn " + i + '/' + j));
        }
        return puts;
    }
}
