package io.ringwatch.engine.spi;

import io.ringwatch.ringbuffer.ChangeRecord;

import java.util.function.LongSupplier;

/**
 * Where the engine records every revision its writer applies, and the {@link History} that
 * watchers catch up from and recovery replays: the revision log. The engine's journal stage (its
 * own thread, {@code ringwatch-journal}, behind the writer) is its only writer.
 *
 * <p>The journal stage calls {@link #appendRevision} once per revision, between {@link #beginBatch}
 * and {@link #endBatch} around each batch of revisions it takes in one go; before it acknowledges
 * writes of a SYNC journal it calls {@link #flush}, once per batch (group commit).
 * Journal-thread methods must not allocate per change in steady state. A method that throws
 * leaves the engine unable to write: it fails that write and every later one, and rolls memory
 * back to what the journal holds, rather than diverge from its log. Throw promptly: a method that
 * blocks stalls acknowledgements (and, once the write ring is full, producers), not the writer.
 *
 * <p>Ownership: opened by {@link Persistence#openJournal}, owned by the engine, closed by it after
 * its writer, delivery and snapshot threads have stopped. Index snapshots are optional: a journal
 * that {@link #keepsSnapshots() keeps them} lets the engine write them beside it, and hands the
 * newest back through {@link #loadSnapshot} at recovery.
 */
public interface Journal extends History, AutoCloseable
{
    /**
     * @return the newest revision recorded, 0 for an empty journal. Any thread.
     */
    long lastRevision();

    /**
     * Records one revision whole, from its changes as the writer built them once, in the order it
     * applied them, each with the key's state after it and before it. From here readers can see
     * it. A journal that keeps bytes copies {@link ChangeRecord#buffer()} as it is (the record
     * holds the revision log's per-change layout); no journal re-encodes a change. Journal thread;
     * no allocation per change in steady state.
     *
     * @param revision        the revision, one more than the last recorded.
     * @param timestampMillis when its write entered the engine, in milliseconds since the epoch.
     * @param changes         the revision's changes, at least one; valid only during the call. The
     *                        journal may move its reading position ({@code rewind}, {@code next})
     *                        but never changes it.
     */
    void appendRevision(long revision, long timestampMillis, ChangeRecord changes);

    /**
     * Opens a batch: the journal stage calls it before the first {@link #appendRevision} (or lease
     * record) of the slots it took in one go, and {@link #endBatch} after the last, before any
     * {@link #flush}. A journal may share per-revision work across the batch (the Chronicle log
     * reads its clock once per batch instead of once per revision). A batch lasts as long as the
     * stage takes to append what it found handed over: at most a write ring's worth. Journal
     * thread; by default nothing.
     */
    default void beginBatch()
    {
    }

    /**
     * Closes the batch {@link #beginBatch} opened, also after an append in it failed. Journal
     * thread; by default nothing.
     */
    default void endBatch()
    {
    }

    /**
     * Makes every revision recorded so far durable as the journal's mode promises (forced to disk
     * in a sync mode; nothing to do in an async one). Journal thread.
     */
    void flush();

    /**
     * Records a lease grant (issue 15), which makes no revision. Journal thread, in order with the
     * revisions around it; {@link #flush} makes it durable with them. By default nothing is
     * recorded: leases then do not survive a restart.
     *
     * @param id         the lease id.
     * @param ttlSeconds its granted TTL.
     */
    default void recordLeaseGrant(final long id, final long ttlSeconds)
    {
    }

    /**
     * Records that a lease ended (revoked or expired), BEFORE the revision that deletes its keys is
     * appended: recovery holds an end only once the log holds that revision, so a crash between the
     * two writes leaves neither (the lease and its keys, as the client saw no answer). Journal
     * thread; by default nothing is recorded.
     *
     * @param id       the lease id.
     * @param revision the revision that deletes its keys, about to be appended; 0 when it held no
     *                 key (no revision).
     */
    default void recordLeaseRevoke(final long id, final long revision)
    {
    }

    /**
     * Hands recovery every lease recorded as granted and not ended, in id order. Recovery thread,
     * before the writer starts; by default none.
     *
     * @param into receives each lease.
     */
    default void loadLeases(final LeaseSink into)
    {
    }

    /**
     * The highest lease id this journal ever recorded as granted, ended leases included, so a
     * recovered engine never grants again an id that a client may still hold from before the
     * restart (etcd's lease ids are unique for the same reason). Recovery thread, before the
     * writer starts; no allocation; by default 0 (no lease recorded).
     *
     * @return the id, or 0.
     */
    default long highestLeaseId()
    {
        return 0;
    }

    /**
     * The most bytes one revision may take in this journal, counted as
     * {@link #revisionHeaderBytes()} plus {@link #changeBytes} of each change. The writer measures
     * a revision against it before it changes anything, so a revision the journal would refuse is
     * refused whole and nothing changes. Any thread.
     *
     * @return the cap; {@code Long.MAX_VALUE} (the default) for a journal without one.
     */
    default long maxRevisionBytes()
    {
        return Long.MAX_VALUE;
    }

    /**
     * @return the bytes a revision takes before its first change, as {@link #maxRevisionBytes()}
     * counts them; 0 by default. Any thread.
     */
    default long revisionHeaderBytes()
    {
        return 0;
    }

    /**
     * The bytes one change adds to its revision, as {@link #maxRevisionBytes()} counts them. Any
     * thread; no allocation.
     *
     * @param keyLength       the key's length.
     * @param valueLength     the new value's length, 0 for a delete.
     * @param prevValueLength the previous value's length, 0 when there was none.
     * @return the bytes; by default the three lengths summed.
     */
    default long changeBytes(final int keyLength, final int valueLength, final int prevValueLength)
    {
        return (long)keyLength + valueLength + prevValueLength;
    }

    /**
     * Keeps this journal's {@link #newReader() readers} from returning a revision above
     * {@code visibleRevision}: in a SYNC engine a revision may be in the log before its batch is
     * durable, and no watcher catching up may see it before that. Called once, before the writer
     * starts; by default readers are not limited.
     *
     * @param visibleRevision the newest revision readers may return; any thread reads it.
     */
    default void limitReadersTo(final LongSupplier visibleRevision)
    {
    }

    /**
     * Hands recovery the newest index snapshot, one key-value at a time, so that it need not
     * replay the whole history. Recovery thread, before the writer starts.
     *
     * @param into receives each key-value with its metadata.
     * @return the revision to replay the log from, exclusive: every change after it must be
     * replayed over the snapshot (replaying a change the snapshot already holds is harmless, since
     * each change carries the key's whole state); 0 with no snapshot.
     */
    long loadSnapshot(SnapshotSink into);

    /**
     * @return true when {@link #flush} forces revisions to disk, so the journal stage acknowledges
     * a batch of writes, and shows it to readers and watchers, only after flushing it; false when an
     * append alone is the acknowledgement.
     * Any thread.
     */
    boolean isSync();

    /**
     * Records the compaction point: watches and reads before it are refused from now on, and the
     * journal may drop what lies before it. Any thread.
     *
     * @param revision the new compaction point; 0, only while none is recorded, records etcd's
     *                 compaction at 0 ({@link #compactedAtZero()}), which drops nothing.
     */
    void compact(long revision);

    /**
     * @return the compaction point recorded, 0 if none. Any thread.
     */
    long compactRevision();

    /**
     * Whether a compaction at 0 was recorded while the compaction point was 0: etcd's compaction
     * mark, -1 in a store never compacted, is then 0. Any thread.
     *
     * @return true once compacted at 0; false for a journal that does not record it.
     */
    default boolean compactedAtZero()
    {
        return false;
    }

    /**
     * Whether the journal's last writer closed it cleanly: everything it recorded is there and it
     * was not killed, did not crash and did not fail. An ASYNC engine shows revisions before they
     * are recorded, so after an unclean close it {@link #skipTo skips} past any revision it may
     * have shown. Opening thread, before the writer starts.
     *
     * @return true (the default) for a journal that cannot tell, a new one, and after a clean close.
     */
    default boolean closedCleanly()
    {
        return true;
    }

    /**
     * Makes revisions {@link #lastRevision()} + 1 to {@code revision} never exist and records the
     * compaction point {@code revision}, durably, before returning: {@link #lastRevision()} is then
     * {@code revision}, the next revision appended is {@code revision + 1}, and readers step over
     * the skipped ones ({@link HistoryReader#seek} to one of them reads on after the skip). etcd's
     * {@code --bump-revision --mark-compacted}. Opening thread, before the writer starts.
     *
     * @param revision the last revision skipped, above {@link #lastRevision()}.
     * @throws UnsupportedOperationException by default: the engine calls it only where
     *                                       {@link #closedCleanly()} says false.
     */
    default void skipTo(final long revision)
    {
        throw new UnsupportedOperationException("this journal cannot skip revisions");
    }

    /**
     * @return true if the engine may write index snapshots beside this journal
     * ({@link #newSnapshot}); false (the default) for none: recovery then replays the whole
     * journal. Any thread.
     */
    default boolean keepsSnapshots()
    {
        return false;
    }

    /**
     * @return the revision of the newest committed snapshot, 0 if none. Any thread.
     */
    default long snapshotRevision()
    {
        return 0;
    }

    /**
     * Starts an index snapshot taken at {@code revision}; the engine commits it only once this
     * journal holds every revision its scan may have seen. The engine's snapshot thread; allocates
     * the output.
     *
     * @param revision the revision the scan starts at: recorded, and newer than
     *                 {@link #snapshotRevision()}.
     * @return the snapshot to fill.
     * @throws UnsupportedOperationException unless {@link #keepsSnapshots()}.
     */
    default SnapshotOutput newSnapshot(final long revision)
    {
        throw new UnsupportedOperationException("this journal keeps no snapshots");
    }

    /** Closes the journal once the writer has stopped. Idempotent. */
    @Override
    void close();
}
