package io.ringwatch.engine.internal.durable;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.TreeMap;

import io.ringwatch.engine.internal.history.Recovery;
import io.ringwatch.engine.internal.revision.PublishedRevisions;
import io.ringwatch.engine.internal.index.IndexEntry;
import io.ringwatch.engine.internal.index.OffHeapIndex;
import io.ringwatch.persistence.ChangeType;
import io.ringwatch.persistence.ChronicleJournal;
import io.ringwatch.persistence.LogConfig;
import io.ringwatch.persistence.RevisionLog;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fuzzy snapshot scans the live index, which runs ahead of the log: the writer applies a
 * revision to the index before the journal stage appends it (and, in SYNC mode, forces it). These
 * tests drive the writer and the journal by hand: revisions 1 to 3 are in the index and the log,
 * revision 4 only in the index, as when a snapshot is taken while a batch waits for its append or
 * group commit. A crash then (kill -9) loses revision 4; the snapshot must not bring it back (it
 * did: recovery returned revision 3 with key a at revision 4's value, and a range read at revision
 * 3 then hid key a entirely, which is how {@link KillNineTest} saw keys vanish).
 */
class FuzzySnapshotTest
{
    @TempDir
    Path dir;

    private final OffHeapIndex index = new OffHeapIndex(16);
    private final IndexEntry prev = new IndexEntry();
    private final HandDrivenProgress progress = new HandDrivenProgress();
    private ChronicleJournal journal;
    private Snapshotter snapshotter;

    @BeforeEach
    void openTheLog()
    {
        journal = ChronicleJournal.open(LogConfig.builder(dir).durability(LogConfig.Durability.SYNC).build(), "fuzzy");
        snapshotter = new Snapshotter("fuzzy-snapshotter", journal, index, progress, 0);
    }

    @AfterEach
    void closeAll()
    {
        index.close();
        if (journal != null)
        {
            journal.close();
        }
    }

    @Test
    void aSnapshotTakenWhileTheIndexIsAheadOfTheLogDoesNotRecoverTheRevisionsTheLogLost()
    {
        indexOneRevisionAheadOfTheLog();

        assertEquals(0, snapshotter.snapshotNow(), "nothing committed while the log lacks revision 4");
        crash();

        assertEquals(state("a", "a1@1", "b", "b2@2", "c", "c3@3"), recover(3));
    }

    @Test
    void theSnapshotIsCommittedOnceTheLogHoldsEverythingItsScanSaw()
    {
        indexOneRevisionAheadOfTheLog();
        snapshotter.snapshotNow();

        log(4, "a");
        writeInMemoryOnly(5, "b", "b5");
        assertEquals(3, snapshotter.snapshotNow(),
            "the snapshot as of revision 3 (holding revision 4's state) committed; the next one waits for revision 5");
        crash();

        assertEquals(state("a", "a4@4", "b", "b2@2", "c", "c3@3"), recover(4));
    }

    @Test
    void aSnapshotOverlappedByARollBackIsAbandonedAndTheNextOneIsExact()
    {
        indexOneRevisionAheadOfTheLog();
        snapshotter.snapshotNow();

        // The journal fails on revision 4: the index is rolled back to the log's revision 3.
        progress.rollbacks += 2;
        index.restore(bytes("a"), 0, 1, bytes("a1"), 0, 2, 1, 1, 1, prev);
        progress.applying = 3;
        assertEquals(3, snapshotter.snapshotNow(), "a new snapshot of the rolled-back index");
        crash();

        assertEquals(state("a", "a1@1", "b", "b2@2", "c", "c3@3"), recover(3));
    }

    /** Revisions 1 to 3 (a, b, c) in the index and the log; revision 4 (a again) in the index only. */
    private void indexOneRevisionAheadOfTheLog()
    {
        writeAndLog(1, "a", "a1");
        writeAndLog(2, "b", "b2");
        writeAndLog(3, "c", "c3");
        writeInMemoryOnly(4, "a", "a4");
    }

    /** Revision {@code revision}: the writer's put, then the journal stage's append and flush. */
    private void writeAndLog(final long revision, final String key, final String value)
    {
        writeInMemoryOnly(revision, key, value);
        log(revision, key);
    }

    /** The journal stage's part of revision {@code revision}: appends the key's state and forces it. */
    private void log(final long revision, final String key)
    {
        final RevisionLog log = journal.log();
        final IndexEntry now = new IndexEntry();
        index.get(bytes(key), 0, key.length(), now);
        log.beginRevision(revision, revision);
        log.appendChange(ChangeType.PUT, bytes(key), 0, key.length(), now.value(), 0, now.valueLength(),
            now.createRevision(), now.modRevision(), now.version(), null, 0, 0, 0, 0, 0);
        log.endRevision();
        log.flush();
        progress.durable = revision;
    }

    /** The writer's part of revision {@code revision} only: the journal stage has not appended it yet. */
    private void writeInMemoryOnly(final long revision, final String key, final String value)
    {
        progress.applying = revision;
        index.put(bytes(key), 0, key.length(), bytes(value), 0, value.length(), revision, prev);
    }

    /** kill -9: whatever the log and the committed snapshots hold now is all a restart finds. */
    private void crash()
    {
        journal.close();
        journal = null;
    }

    private TreeMap<String, String> recover(final long expectedRevision)
    {
        journal = ChronicleJournal.open(LogConfig.builder(dir).durability(LogConfig.Durability.SYNC).build(), "fuzzy");
        final TreeMap<String, String> state = new TreeMap<>();
        try (OffHeapIndex recovered = new OffHeapIndex(16))
        {
            assertEquals(expectedRevision, Recovery.recover(journal, recovered));
            recovered.scan(null, 0, 0, null, 0, 0, 0, entry ->
            {
                state.put(new String(entry.keyBytes(), StandardCharsets.UTF_8),
                    new String(entry.valueBytes(), StandardCharsets.UTF_8) + "@" + entry.modRevision());
                return true;
            });
        }
        return state;
    }

    private static TreeMap<String, String> state(final String... keysAndValues)
    {
        final TreeMap<String, String> state = new TreeMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2)
        {
            state.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return state;
    }

    private static UnsafeBuffer bytes(final String text)
    {
        return new UnsafeBuffer(text.getBytes(StandardCharsets.UTF_8));
    }

    /** The writer's and the journal stage's progress, moved by the test. */
    private static final class HandDrivenProgress implements PublishedRevisions
    {
        long applying;
        long durable;
        long rollbacks;

        @Override
        public long durable()
        {
            return durable;
        }

        @Override
        public long awaitBound()
        {
            return applying;
        }

        @Override
        public long applied()
        {
            return applying;
        }

        @Override
        public long awaitApplying()
        {
            return applying;
        }

        @Override
        public long readStamp()
        {
            return rollbacks;
        }

        @Override
        public boolean isStable(final long stamp)
        {
            return rollbacks == stamp;
        }
    }
}
