package io.ringwatch.engine.internal.write;

import io.ringwatch.engine.internal.index.IndexEntry;
import io.ringwatch.engine.internal.index.OffHeapIndex;
import io.ringwatch.engine.internal.secondary.IndexMaintainer;
import io.ringwatch.ringbuffer.ChangeRecord;

/**
 * Undoes revisions the journal could not take: restores every changed key to the state before
 * its change (each change record carries it, as the log's records do), in the primary index and
 * the secondary indexes. Runs once, after a journal failure, on the journal stage's thread once
 * the writer has stopped mutating (it refuses every command after the failure), so the index
 * still has one mutator at a time. Allocates nothing.
 */
final class IndexRollback
{
    private final OffHeapIndex index;
    private final IndexMaintainer secondary;
    private final IndexEntry replaced = new IndexEntry();

    IndexRollback(final OffHeapIndex index, final IndexMaintainer secondary)
    {
        this.index = index;
        this.secondary = secondary;
    }

    /**
     * Restores the state before every change of one revision. A revision changes each key at most
     * once, so its changes are undone in any order; revisions must be undone newest first.
     *
     * @param changes the revision's changes.
     */
    void undo(final ChangeRecord changes)
    {
        secondary.beginUndo();
        changes.rewind();
        while (changes.next())
        {
            final int keyLength = changes.keyLength();
            final long prevModRevision = changes.prevModRevision();
            if (prevModRevision != 0)
            {
                index.restore(changes.key(), 0, keyLength, changes.prevValue(), 0, changes.prevValueLength(),
                    changes.prevLease(), changes.prevCreateRevision(), prevModRevision, changes.prevVersion(), replaced);
                secondary.onChange(prevModRevision, changes.key(), keyLength, replaced,
                    changes.prevValue(), changes.prevValueLength());
            }
            else
            {
                index.remove(changes.key(), 0, keyLength, replaced);
                secondary.onChange(Math.max(1, changes.createRevision()), changes.key(), keyLength, replaced, null, 0);
            }
        }
    }
}
