package io.ringwatch.engine.internal.history;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.errors.RecoveryException;
import io.ringwatch.engine.kv.KeyRange;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Opening refuses, with {@link RecoveryException}, a snapshot and log that do not form one history,
 * and accepts a fuzzy snapshot whose newest change the log still covers.
 */
class RecoveryCheckTest
{
    @Test
    void aSnapshotHoldingAChangeTheLogDoesNotReachIsRefused()
    {
        final InMemoryJournal journal = threeRevisions();
        journal.snapshotAt(2);
        journal.snapshotHolds("a", "1", 1, 1, 1);
        journal.snapshotHolds("b", "2", 2, 2, 1);
        journal.snapshotHolds("z", "lost", 5, 5, 1);

        final RecoveryException refused = assertThrows(RecoveryException.class, () -> open(journal));
        assertTrue(refused.getMessage().contains("revision 5") && refused.getMessage().contains("ends at revision 3"),
            refused.getMessage());
    }

    @Test
    void aSnapshotAheadOfAnEmptyTailIsRefusedToo()
    {
        final InMemoryJournal journal = new InMemoryJournal(16, true);
        journal.snapshotAt(4);
        journal.snapshotHolds("a", "1", 1, 6, 2);

        assertThrows(RecoveryException.class, () -> open(journal));
    }

    @Test
    void aFuzzySnapshotWhoseNewestChangeTheLogCoversRecovers()
    {
        final InMemoryJournal journal = threeRevisions();
        journal.snapshotAt(2);
        journal.snapshotHolds("a", "1", 1, 1, 1);
        journal.snapshotHolds("b", "2", 2, 2, 1);
        journal.snapshotHolds("c", "3", 3, 3, 1);

        try (RingWatch engine = open(journal))
        {
            assertEquals(3, engine.currentRevision());
            assertEquals(List.of("a", "b", "c"),
                engine.range(KeyRange.all(), 0).kvs().stream().map(kv -> kv.keyAsString()).toList());
        }
    }

    @Test
    void aLogThatStartsAfterTheSnapshotIsRefused()
    {
        final InMemoryJournal journal = threeRevisions();
        journal.dropBefore(3);
        journal.snapshotAt(1);
        journal.snapshotHolds("a", "1", 1, 1, 1);

        final RecoveryException refused = assertThrows(RecoveryException.class, () -> open(journal));
        assertTrue(refused.getMessage().contains("from revision 2"), refused.getMessage());
    }

    /** A journal holding revisions 1 to 3: puts of a, b and c, written by an engine since closed. */
    private static InMemoryJournal threeRevisions()
    {
        final InMemoryJournal journal = new InMemoryJournal(16, true);
        try (RingWatch engine = open(journal))
        {
            engine.put("a", "1");
            engine.put("b", "2");
            engine.put("c", "3");
        }
        return journal;
    }

    private static RingWatch open(final InMemoryJournal journal)
    {
        return RingWatch.open(RingWatchConfig.builder().persistence(name -> journal).build());
    }
}
