package io.ringwatch.engine.internal.history;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.internal.index.OffHeapIndex;
import io.ringwatch.engine.kv.KeyRange;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Replay applies every change of the log, in order, whatever the number of changes against the
 * replay's batch ({@link Recovery#BATCH_CHANGES}) and touch group ({@link Recovery#TOUCH_GROUP}),
 * and a snapshot whose keys are out of order still loads whole.
 */
class RecoveryReplayTest
{
    private static final long SEED = 7;

    @ParameterizedTest
    @ValueSource(ints = {1, Recovery.TOUCH_GROUP - 1, Recovery.TOUCH_GROUP, 2 * Recovery.TOUCH_GROUP, 3 * Recovery.TOUCH_GROUP + 5, Recovery.BATCH_CHANGES + 1, 1_000})
    void replayRebuildsWhatTheEngineHeldAfterEveryChange(final int writes)
    {
        final InMemoryJournal journal = new InMemoryJournal(4 * writes + 16, true);
        final List<String> expected;
        try (RingWatch engine = open(journal))
        {
            final Random random = new Random(SEED + writes);
            for (int i = 0; i < writes; i++)
            {
                final String key = "k" + random.nextInt(Math.max(1, writes / 3));
                if (random.nextInt(5) == 0)
                {
                    engine.delete(key);
                }
                else
                {
                    engine.put(key, "v" + i + "-".repeat(random.nextInt(40)));
                }
            }
            expected = state(engine);
        }

        try (OffHeapIndex index = new OffHeapIndex(16))
        {
            assertEquals(journal.lastRevision(), Recovery.recover(journal, index));
        }
        try (RingWatch reopened = open(journal))
        {
            assertEquals(expected, state(reopened), "seed " + (SEED + writes));
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aSnapshotLoadsWholeInOrderOrNot(final boolean ascending)
    {
        final InMemoryJournal journal = new InMemoryJournal(16, true);
        journal.snapshotAt(9);
        final List<String> keys = new ArrayList<>(List.of("a", "b", "c", "d", "e", "f"));
        if (!ascending)
        {
            keys.set(0, "f");
            keys.set(5, "a");
        }
        final List<String> expected = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++)
        {
            journal.snapshotHolds(keys.get(i), "value of " + keys.get(i), 1 + i, 1 + i, 1);
            expected.add(keys.get(i) + "=value of " + keys.get(i) + ' ' + (1 + i) + ' ' + (1 + i) + " 1");
        }
        expected.sort(null);

        try (RingWatch engine = open(journal))
        {
            assertEquals(9, engine.currentRevision());
            assertEquals(expected, state(engine));
        }
    }

    private static List<String> state(final RingWatch engine)
    {
        return engine.range(KeyRange.all(), 0).kvs().stream()
            .map(kv -> kv.keyAsString() + '=' + new String(kv.value(), StandardCharsets.UTF_8) + ' ' + kv.createRevision() +
                ' ' + kv.modRevision() + ' ' + kv.version())
            .toList();
    }

    private static RingWatch open(final InMemoryJournal journal)
    {
        return RingWatch.open(RingWatchConfig.builder().persistence(name -> journal).build());
    }
}
