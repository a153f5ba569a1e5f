package io.ringwatch.engine.internal.read;

import io.ringwatch.engine.errors.ReadBudgetExceededException;
import io.ringwatch.engine.internal.undo.UndoLog;
import io.ringwatch.engine.internal.undo.UndoVisitor;
import io.ringwatch.engine.internal.revision.PublishedRevisions;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;

import java.util.concurrent.locks.LockSupport;

/**
 * One consistent read's pin: the revision it is exact at, held in the {@link UndoLog}'s pin
 * table from {@link #open} to {@link #close()}, so the writer keeps the pre-image of every key
 * it changes meanwhile. A read scans the live index, keeping entries whose modRevision is at most
 * {@link #revision()}, then, after {@link #awaitScanned()}, takes for each key changed since the
 * pin its oldest pre-image ({@link #undoneSince}): together, exactly the state at the pin, however
 * long the scan takes and however fast the writer goes; the writer is never paused.
 *
 * <p>The revision is the writer's bound read after the pin was published (the end of the flush
 * group the writer had announced: every later revision was applied with the pin seen), once
 * applied: in a SYNC engine that is once durable, so a read never returns a revision that is not
 * durable. A journal failure's roll-back during the read makes {@link #isStable()} false: read
 * again. One thread; allocates the holder and a scratch buffer.
 */
public final class PinnedRead implements AutoCloseable
{
    /** Stands for "absent at the pinned revision" among the pre-images; compared by identity. */
    public static final KeyValue ABSENT = new KeyValue(new byte[] {0}, new byte[0], 1, 1, 1);

    private static final int SPINS = 100;

    private final UndoLog undo;
    private final PublishedRevisions cursor;
    private final long stamp;
    private final int slot;
    private final long revision;
    private final ExpandableArrayBuffer staging = new ExpandableArrayBuffer(4096);
    private boolean closed;

    private PinnedRead(final UndoLog undo, final PublishedRevisions cursor, final KeyRange range)
    {
        this.undo = undo;
        this.cursor = cursor;
        stamp = cursor.readStamp();
        slot = undo.pin();
        undo.scope(slot, range);
        try
        {
            revision = cursor.awaitApplying();
        }
        catch (final RuntimeException e)
        {
            undo.unpin(slot);
            throw e;
        }
        undo.pinAt(slot, revision);
    }

    /**
     * Pins a read at the newest revision that is visible (in SYNC: durable). Any thread; waits
     * for the revision the writer is applying, a few microseconds (in SYNC up to one group
     * commit).
     *
     * @param undo   the engine's undo log.
     * @param cursor the writer's progress.
     * @return the pinned read; close it when done.
     */
    public static PinnedRead open(final UndoLog undo, final PublishedRevisions cursor)
    {
        return new PinnedRead(undo, cursor, null);
    }

    /**
     * Pins a read of one range at the newest revision that is visible (in SYNC: durable): the
     * writer keeps pre-images of that range's keys only. Any thread; waits as {@link #open(UndoLog,
     * PublishedRevisions)}.
     *
     * @param undo   the engine's undo log.
     * @param cursor the writer's progress.
     * @param range  the keys the read reads.
     * @return the pinned read; close it when done.
     */
    public static PinnedRead open(final UndoLog undo, final PublishedRevisions cursor, final KeyRange range)
    {
        return new PinnedRead(undo, cursor, range);
    }

    /**
     * Says that the scan, in ascending key order, has read every key of the range up to and
     * including {@code key}: from the writer's next revision on, their pre-images are not kept for
     * this read. The read's own thread; allocates nothing.
     *
     * @param key the last key read; not modified afterwards.
     */
    public void passed(final byte[] key)
    {
        undo.pass(slot, key);
    }

    /**
     * @return the revision the read is exact at.
     */
    public long revision()
    {
        return revision;
    }

    /**
     * Waits until the writer has kept the pre-images of every change the caller's scan may have
     * seen: up to the end of the flush group it had announced (microseconds: the writer keeps them
     * as it ends each revision). Call after the scan.
     *
     * @return false when a roll-back overlapped the read: read again.
     */
    public boolean awaitScanned()
    {
        final long bound = cursor.awaitBound();
        for (int step = 0; bound > revision && undo.recordedRevision() < bound; step++)
        {
            if (!cursor.isStable(stamp))
            {
                return false;
            }
            if (step < SPINS)
            {
                Thread.onSpinWait();
            }
            else
            {
                LockSupport.parkNanos(1_000);
            }
        }
        return cursor.isStable(stamp);
    }

    /**
     * Visits, for each key of {@code range} changed since the pin, its state at the pin (its
     * oldest pre-image since), possibly several times per key, oldest first: the caller keeps the
     * first of each key.
     *
     * @param range   the keys, or null for all.
     * @param visitor receives each pre-image.
     * @throws ReadBudgetExceededException if the writer had to drop what this read needs.
     */
    public void undoneSince(final KeyRange range, final UndoVisitor visitor)
    {
        undo.readSince(revision, range, staging, visitor);
    }

    /**
     * @return true when no roll-back overlapped the read so far.
     */
    public boolean isStable()
    {
        return cursor.isStable(stamp);
    }

    /**
     * Unpins: the writer may recycle what only this read needed. Idempotent.
     */
    @Override
    public void close()
    {
        if (!closed)
        {
            closed = true;
            undo.unpin(slot);
        }
    }

    /**
     * Copies a pre-image out; allocates the key-value.
     *
     * @param key            the key, already copied.
     * @param buffer         holds the previous value.
     * @param valueOffset    where it starts.
     * @param valueLength    its length, or -1 for absent.
     * @param createRevision the previous createRevision.
     * @param modRevision    the previous modRevision.
     * @param version        the previous version.
     * @param lease          the previous lease id.
     * @return the key-value, or {@link #ABSENT}.
     */
    public static KeyValue preImage(
        final byte[] key, final DirectBuffer buffer, final int valueOffset, final int valueLength,
        final long createRevision, final long modRevision, final long version, final long lease)
    {
        if (valueLength < 0)
        {
            return ABSENT;
        }
        final byte[] value = new byte[valueLength];
        buffer.getBytes(valueOffset, value);
        return new KeyValue(key, value, createRevision, modRevision, version, lease);
    }
}
