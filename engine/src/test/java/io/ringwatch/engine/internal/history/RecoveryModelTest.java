package io.ringwatch.engine.internal.history;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.internal.index.IndexEntry;
import io.ringwatch.engine.internal.index.OffHeapIndex;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.Txn;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Model test of recovery, with and without a snapshot: random puts, deletes, puts with leases and
 * transactions of several changes over a few keys, recovered through rings and batches of many
 * shapes, must give exactly the index a change-by-change replay in order builds (keys, values,
 * revisions, versions, leases). A replay in another order than the log's (issue 16's newest-first
 * experiment, reverted) must pass it too.
 */
class RecoveryModelTest
{
    private static final int ROUNDS = 60;

    @Test
    void aLogWithoutASnapshotRecoversAsAReplayInOrder()
    {
        for (int round = 0; round < ROUNDS; round++)
        {
            check(round, false);
        }
    }

    @Test
    void aLogAfterASnapshotRecoversAsAReplayInOrder()
    {
        for (int round = 0; round < ROUNDS; round++)
        {
            check(round, true);
        }
    }

    private static void check(final int round, final boolean withSnapshot)
    {
        final long seed = 1_000L * round + (withSnapshot ? 1 : 0);
        final Random random = new Random(seed);
        final InMemoryJournal journal = written(random, 1 + random.nextInt(200), 1 + random.nextInt(6));
        if (withSnapshot)
        {
            final long at = 1 + random.nextInt((int)journal.lastRevision());
            journal.snapshotAt(at);
            for (int k = 0; k < 4; k++)
            {
                if (random.nextBoolean())
                {
                    final long mod = 1 + random.nextInt((int)at);
                    journal.snapshotHolds("k" + k, "snap" + k, 1 + random.nextInt((int)mod), mod, 1 + random.nextInt(3));
                }
            }
        }
        final List<String> expected = inOrder(journal);
        final int ringBatches = 1 << random.nextInt(4);
        final int batchChanges = 1 + random.nextInt(9);
        try (OffHeapIndex index = new OffHeapIndex(4))
        {
            assertEquals(journal.lastRevision(), Recovery.recover(journal, index, ringBatches, batchChanges));
            assertEquals(expected, state(index), "seed " + seed + ", ring " + ringBatches + " x " + batchChanges);
        }
        try (OffHeapIndex index = new OffHeapIndex(4))
        {
            Recovery.recover(journal, index);
            assertEquals(expected, state(index), "seed " + seed + ", default shape");
        }
    }

    /** Writes {@code writes} random writes over {@code keys} keys through an engine. */
    private static InMemoryJournal written(final Random random, final int writes, final int keys)
    {
        final InMemoryJournal journal = new InMemoryJournal(8 * writes + 16, true);
        try (RingWatch engine = RingWatch.open(RingWatchConfig.builder().persistence(name -> journal).build()))
        {
            final long lease = engine.leases().grant(3_600).id();
            for (int i = 0; i < writes; i++)
            {
                final String key = "k" + random.nextInt(keys);
                final String value = "v" + i + "-".repeat(random.nextInt(30));
                switch (random.nextInt(6))
                {
                    case 0 -> engine.delete(key);
                    case 1 -> engine.write(Op.put(key, value).withLease(lease));
                    case 2 -> engine.txn(Txn.of(List.of(), List.of(Op.put(key + "a", value), Op.delete(key),
                        Op.put(key + "b", value).withLease(lease)), List.of()));
                    default -> engine.put(key, value);
                }
            }
        }
        return journal;
    }

    /** The reference: the snapshot loaded, then every change after it read one by one and applied in order. */
    private static List<String> inOrder(final InMemoryJournal journal)
    {
        try (OffHeapIndex index = new OffHeapIndex(4))
        {
            journal.loadSnapshot(new SnapshotLoad(index));
            index.finishOrderedLoad();
            ChangeByChangeReplay.replay(journal, index);
            return state(index);
        }
    }

    private static List<String> state(final OffHeapIndex index)
    {
        final List<String> state = new ArrayList<>();
        index.scan(null, 0, 0, null, 0, 0, 0, e ->
        {
            state.add(new String(e.keyBytes(), StandardCharsets.UTF_8) + '=' + new String(e.valueBytes(), StandardCharsets.UTF_8) +
                " create " + e.createRevision() + " mod " + e.modRevision() + " version " + e.version() + " lease " + e.lease());
            return true;
        }, new IndexEntry());
        return state;
    }
}
