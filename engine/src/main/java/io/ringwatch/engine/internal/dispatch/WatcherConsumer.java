package io.ringwatch.engine.internal.dispatch;

import io.ringwatch.engine.errors.IndexFunctionException;
import io.ringwatch.engine.internal.secondary.IndexMatch;
import io.ringwatch.engine.spi.HistoryGapException;
import io.ringwatch.engine.watch.CancelReason;
import io.ringwatch.engine.watch.WatchCancellation;
import io.ringwatch.engine.watch.WatchListener;
import io.ringwatch.ringbuffer.EventRecord;
import io.ringwatch.ringbuffer.EventType;
import io.ringwatch.ringbuffer.WatchWindow;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The consumer's side of one watcher (the delivery thread of a push watcher, the polling thread
 * of a pull watcher, one at a time): where delivery stands, exactly, the cursor it reads by while
 * off the routes, and the delivery itself. Allocated by the watcher the first time its consumer
 * has something to deliver, so an idle watcher holds one null reference instead of this object
 * (about 48 bytes); the cursor is allocated the first time the watcher reads by it, and kept.
 *
 * <p>The consumer's part of the watch's life (see {@link WatcherState}): SYNCED, it delivers what
 * the shard queued, in order, and the progress markers between the events; told to catch up (or
 * lapped as it reads the window), it is CATCHING_UP and reads the history by its own
 * {@link CatchUpCursor} from the exact point it has delivered up to, filtering by the watcher's
 * range; at the end of the history it asks to rejoin the routes and is REJOINING until the shard
 * confirms, then SYNCED again. It tracks its point for every event it hands over, so each
 * hand-over has no gap and no duplicate.
 *
 * <p>Threads: the watcher's current consumer only; a hand-over between consumer threads is
 * published by the watcher's drain. Allocation: none per event; a history reader per catch-up,
 * and a cursor for the first.
 */
final class WatcherConsumer
{
    private static final Logger LOG = LoggerFactory.getLogger(WatcherConsumer.class);

    /** Delivering what the routes queue. */
    static final byte SYNCED = 0;
    /** Off the routes, reading the history by {@link #cursor}. */
    static final byte CATCHING_UP = 1;
    /** At the end of the history, waiting for the shard to route the watcher again. */
    static final byte REJOINING = 2;
    /**
     * The most changes one catch-up call reads, wanted or not. A watcher of one key reads past
     * every other key's changes; without a bound one turn could read the whole log and hold its
     * delivery thread (and every watcher queued behind it) for as long.
     */
    static final int CATCH_UP_READS_PER_CALL = 4096;

    private final WatcherState watcher;
    /** SYNCED, CATCHING_UP or REJOINING. */
    private byte mode = SYNCED;
    /** The cancellation has been handed to the listener. */
    private boolean cancellationDelivered;
    /** The last rejoin request sent. */
    private int rejoinTicket;
    /** Every event before this revision has been delivered... */
    private long resumeRevision;
    /** ...and this many of its own matching events. */
    private int deliveredAtResume;
    /**
     * A revision every event up to which has been delivered (the last progress reported, or one
     * before the revision of the last event delivered), so progress never goes back. Progress is
     * never delivered below {@link #resumeRevision} once an event of it is delivered
     * ({@link #deliverProgress}).
     */
    private long knownComplete;
    /** The cursor: open while catching up, closed once rejoined; null before the first catch-up and once ended. */
    private CatchUpCursor cursor;
    /** The last drain stopped at {@link #CATCH_UP_READS_PER_CALL} with more history to read. */
    private boolean stoppedAtReadLimit;

    /**
     * @param watcher       the watcher it consumes.
     * @param startRevision the watcher's first revision: nothing before it is owed.
     */
    WatcherConsumer(final WatcherState watcher, final long startRevision)
    {
        this.watcher = watcher;
        this.resumeRevision = startRevision;
    }

    /**
     * @return whether the last drain stopped at the catch-up read bound with more history to read:
     *         nothing was handed over for it, and nothing but another drain reads on. Consumer thread.
     */
    boolean stoppedAtReadLimit()
    {
        return stoppedAtReadLimit;
    }

    /**
     * @return SYNCED, CATCHING_UP or REJOINING. Consumer thread; a racy read from any other.
     */
    byte mode()
    {
        return mode;
    }

    /**
     * @return a revision every event up to which has been delivered. Consumer thread; a racy
     * read from any other.
     */
    long deliveredThrough()
    {
        return Math.max(resumeRevision - 1, knownComplete);
    }

    /**
     * @return true when a call to {@link #drain} would hand over something.
     */
    boolean hasSomethingToDeliver()
    {
        if (watcher.cancellation() != null)
        {
            // Once ended, only the cancellation (and, after a close, the queue before it) is left.
            return !cancellationDelivered;
        }
        if (watcher.isCatchUpRequested())
        {
            return true;
        }
        switch (mode)
        {
            case SYNCED:
                return !watcher.isDrained();
            case CATCHING_UP:
                // At the end of the history it waits for the dispatcher to confirm it is unrouted.
                final CatchUpCursor at = cursor;
                return at == null || !at.atEnd || !watcher.isRouted() || watcher.owesProgress();
            default:
                return watcher.joinedTicket() == rejoinTicket;
        }
    }

    /**
     * Hands pending events, progress notifications and, once, the cancellation to
     * {@code listener} on the calling thread.
     *
     * @param listener  receives them; an exception it throws cancels the watch.
     * @param batch     the consumer's reusable batch.
     * @param maxEvents the most events to hand over.
     * @return the number of events handed over.
     */
    int drain(final WatchListener listener, final EventBatchView batch, final int maxEvents)
    {
        int delivered = 0;
        stoppedAtReadLimit = false;
        batch.clear();
        if (watcher.takeCatchUpRequest())
        {
            beginCatchUp();
            skipWhatTheRoutesHandedOver();
        }
        if (mode == REJOINING && watcher.joinedTicket() == rejoinTicket)
        {
            mode = SYNCED;
        }
        if (mode == CATCHING_UP)
        {
            delivered += catchUp(listener, batch, maxEvents);
        }
        while (mode == SYNCED && delivered + batch.size() < maxEvents && watcher.eventsStillFlow())
        {
            // Read once per entry: the dispatcher takes the queue away when it unroutes the watcher,
            // and what this consumer delivers from the old one stays exact (it tracks its point).
            final PendingQueue queue = watcher.pending();
            final long entry = queue == null ? PendingQueue.EMPTY : queue.peek();
            if (entry == PendingQueue.EMPTY)
            {
                break;
            }
            if (entry < 0)
            {
                delivered += flush(listener, batch);
                queue.poll();
                if (watcher.eventsStillFlow())
                {
                    deliverProgress(listener, -entry - 1);
                }
                continue;
            }
            if (batch.isFull())
            {
                delivered += flush(listener, batch);
                continue;
            }
            final EventRecord record = batch.nextSlot().record;
            if (watcher.shard.window.read(WatcherState.sequenceOf(entry), record) != WatchWindow.READ_OK)
            {
                if (watcher.cancellation() != null)
                {
                    // Ended already (the engine closed): what the window lost cannot be delivered;
                    // drop it so the cancellation goes out instead of this read failing forever.
                    discardPending();
                    break;
                }
                delivered += flush(listener, batch);
                beginCatchUp();
                watcher.shard.dispatcher.requestUnroute(watcher);
                delivered += catchUp(listener, batch, maxEvents - delivered);
                break;
            }
            queue.poll();
            commit(batch, record, WatcherState.indexMatchOf(entry));
        }
        delivered += flush(listener, batch);
        if (!watcher.eventsStillFlow() || (watcher.cancellation() != null && mode != SYNCED))
        {
            // Nothing more is delivered: drop what is queued so the watcher reads as drained.
            discardPending();
            closeCursor();
        }
        final WatchCancellation ending = watcher.cancellation();
        if (ending != null && !cancellationDelivered &&
            (!watcher.eventsStillFlow() || watcher.isDrained() || mode != SYNCED))
        {
            cancellationDelivered = true;
            try
            {
                listener.onCancelled(ending);
            }
            catch (final RuntimeException | Error ignore)
            {
                // The watch has ended either way; nothing is left to protect but this delivery
                // thread, which an Error of the listener's own must not end.
            }
        }
        return delivered;
    }

    private void discardPending()
    {
        final PendingQueue queue = watcher.pending();
        if (queue != null)
        {
            while (queue.poll() != PendingQueue.EMPTY)
            {
                // Only emptied here; the dispatcher frees it.
            }
        }
    }

    private void commit(final EventBatchView batch, final EventRecord record, final int indexMatch)
    {
        batch.commit(watcher.prevKv(), indexMatch);
        final long revision = record.revision();
        if (revision == resumeRevision)
        {
            deliveredAtResume++;
        }
        else
        {
            resumeRevision = revision;
            deliveredAtResume = 1;
            knownComplete = Math.max(knownComplete, revision - 1);
        }
    }

    /**
     * Moves the resume point past the revision up to which the routes had offered this watcher
     * every event it matches when the shard took it off them with its queue drained: everything
     * up to there is delivered (this thread took the last entry before it took the catch-up
     * request). A value from an earlier fall behind is at or below the resume point already.
     */
    private void skipWhatTheRoutesHandedOver()
    {
        final long through = watcher.drainedThrough();
        if (through >= resumeRevision)
        {
            resumeRevision = through + 1;
            deliveredAtResume = 0;
        }
    }

    private void beginCatchUp()
    {
        mode = CATCHING_UP;
        if (cursor == null)
        {
            cursor = new CatchUpCursor();
        }
        else
        {
            cursor.close();
        }
    }

    /**
     * Delivers from the history from the resume point, reporting owed progress at the revision
     * boundaries it reaches, reading at most {@link #CATCH_UP_READS_PER_CALL} changes (the next
     * call goes on from there); at its end, once the dispatcher has taken the watcher off the
     * routes, asks to rejoin the window at the next revision.
     */
    private int catchUp(final WatchListener listener, final EventBatchView batch, final int maxEvents)
    {
        if (watcher.cancellation() != null)
        {
            return 0;
        }
        final CatchUpCursor at = cursor;
        if (compactedUnder(at))
        {
            return 0;
        }
        final IndexWatch index = watcher.index();
        int delivered = 0;
        try
        {
            if (at.reader() == null && !openCursor(at))
            {
                return 0;
            }
            at.atEnd = false;
            int reads = 0;
            while (delivered + batch.size() < maxEvents && reads < CATCH_UP_READS_PER_CALL)
            {
                if (batch.isFull())
                {
                    delivered += flush(listener, batch);
                    if (watcher.cancellation() != null)
                    {
                        return delivered;
                    }
                    continue;
                }
                final EventRecord record = batch.nextSlot().record;
                if (!at.reader().next(record))
                {
                    at.atEnd = true;
                    break;
                }
                reads++;
                final long revision = record.revision();
                if (revision != at.lastRead)
                {
                    if (at.lastRead != 0 && watcher.takeProgressWanted())
                    {
                        // Every event of lastRead is in the batch or delivered: report it before
                        // this event of a later revision, which stays in its slot meanwhile.
                        delivered += flushKeepingNext(listener, batch);
                        deliverProgress(listener, at.lastRead);
                        if (watcher.cancellation() != null)
                        {
                            return delivered;
                        }
                    }
                    at.lastRead = revision;
                }
                final int match = index == null ? IndexMatch.AS_IS : at.indexMatch(index.name, index, record);
                if (!wanted(record, match))
                {
                    continue;
                }
                if (revision == resumeRevision && at.skip > 0)
                {
                    at.skip--;
                    continue;
                }
                commit(batch, record, match);
            }
            stoppedAtReadLimit = reads >= CATCH_UP_READS_PER_CALL && !at.atEnd;
        }
        catch (final IndexFunctionException e)
        {
            delivered += flush(listener, batch);
            watcher.terminate(CancelReason.INDEX_FUNCTION_FAILED, 0, e, "the index function threw while catching up: " + e);
            return delivered;
        }
        catch (final RuntimeException e)
        {
            delivered += flush(listener, batch);
            // Retention deletes only below the compaction point: files deleted under this reader
            // since the turn's check leave it behind a compaction, which clients relist after.
            if (compactedUnder(at))
            {
                return delivered;
            }
            if (e instanceof HistoryGapException gap)
            {
                LOG.error("A watcher needed revisions {}..{}, which are missing from the middle of the revision log " +
                    "(data loss, not compaction): {}", gap.missingFrom(), gap.missingTo(), gap.getMessage());
                watcher.terminate(CancelReason.HISTORY_LOST, gap.missingTo() + 1, e,
                    "revisions " + gap.missingFrom() + ".." + gap.missingTo() + " are lost from the revision log: " + e.getMessage());
                return delivered;
            }
            watcher.terminate(CancelReason.REVISION_UNAVAILABLE, watcher.shard.history.resumeRevision(), e,
                "the history no longer holds the events this watcher needs: " + e);
            return delivered;
        }
        delivered += flush(listener, batch);
        if (at.atEnd)
        {
            final long read = at.reader().lastRevision();
            if (read >= resumeRevision)
            {
                resumeRevision = read + 1;
                deliveredAtResume = 0;
            }
            if (deliveredAtResume == 0 && watcher.cancellation() == null)
            {
                // The end falls between revisions: everything before resumeRevision is delivered.
                if (watcher.takeProgressWanted())
                {
                    deliverProgress(listener, resumeRevision - 1);
                }
                if (!watcher.isRouted() && watcher.cancellation() == null)
                {
                    rejoin();
                }
            }
        }
        return delivered;
    }

    /**
     * Whether the watcher wants an event read by its cursor, given how it matches a watch by index
     * (a watch by key matches AS_IS and is decided by its range); a watch by index sees an event
     * as the type its old and new values make it (old-or-new semantics), so filters apply to that.
     */
    private boolean wanted(final EventRecord record, final int match)
    {
        if (match == IndexMatch.AS_IS)
        {
            return watcher.wants(record, resumeRevision);
        }
        return match != IndexMatch.NONE && record.revision() >= resumeRevision && watcher.passesFilters(typeSeen(record, match));
    }

    /** The type a watch by index sees an event as. */
    private static EventType typeSeen(final EventRecord record, final int match)
    {
        if (match == IndexMatch.AS_DELETE)
        {
            return EventType.DELETE;
        }
        return match == IndexMatch.AS_ADD ? EventType.PUT : record.type();
    }

    /**
     * A watcher reading by cursor whose position is before the compaction point is cancelled
     * COMPACTED with that point, as etcd cancels its unsynced watchers behind a compaction.
     */
    private boolean compactedUnder(final CatchUpCursor at)
    {
        final long compacted = watcher.shard.compactRevision.getAsLong();
        final long position = at.lastRead != 0 ? at.lastRead : resumeRevision;
        if (position >= compacted)
        {
            return false;
        }
        watcher.terminate(CancelReason.COMPACTED, compacted, null,
            "revision " + position + " has been compacted; compact revision is " + compacted);
        return true;
    }

    private boolean openCursor(final CatchUpCursor at)
    {
        if (!at.open(watcher.shard.history, resumeRevision, deliveredAtResume))
        {
            watcher.terminate(CancelReason.REVISION_UNAVAILABLE, watcher.shard.history.resumeRevision(), null,
                "revision " + resumeRevision + " is older than the oldest revision held");
            return false;
        }
        return true;
    }

    private void rejoin()
    {
        // Kept, closed, for the next catch-up: a watcher that keeps overflowing allocates no cursor each time.
        cursor.close();
        mode = REJOINING;
        rejoinTicket++;
        // Any catch-up request still set belongs to the routing this rejoin replaces (the
        // dispatcher requests before it unroutes); only requests made from here on are news.
        watcher.takeCatchUpRequest();
        watcher.shard.dispatcher.requestRejoin(watcher, resumeRevision, rejoinTicket);
    }

    private void closeCursor()
    {
        final CatchUpCursor at = cursor;
        if (at != null)
        {
            cursor = null;
            at.close();
        }
    }

    private int flush(final WatchListener listener, final EventBatchView batch)
    {
        final int size = batch.size();
        if (size == 0)
        {
            return 0;
        }
        deliverEvents(listener, batch);
        batch.clear();
        return size;
    }

    private int flushKeepingNext(final WatchListener listener, final EventBatchView batch)
    {
        final int size = batch.size();
        if (size > 0)
        {
            deliverEvents(listener, batch);
        }
        batch.clearKeepingNext();
        return size;
    }

    private void deliverEvents(final WatchListener listener, final EventBatchView batch)
    {
        if (watcher.eventsStillFlow())
        {
            try
            {
                listener.onEvents(batch);
            }
            catch (final RuntimeException | Error e)
            {
                watcher.terminate(CancelReason.LISTENER_FAILED, 0, e, "the listener threw " + e);
            }
        }
    }

    /**
     * Delivers progress: the larger of {@code revision} and what the consumer knows complete
     * itself ({@link #deliveredThrough()}: the last progress, or the revision before its resume
     * point), so it never goes back behind a progress delivered before, nor behind an event
     * delivered before. The one place that rule is kept: a client-go reflector records a
     * bookmark's revision as its last synced one, and a bookmark at R after an event of R + 1 makes
     * its next watch replay that event. A marker may name a revision below the resume point (a
     * watcher that read the log by cursor past where its shard has routed rejoins ahead of it), and
     * is raised to it. The shard queues markers only at revision ends and the cursor reports only
     * revisions it has read past, so a progress below the revision of an event delivered (one whose
     * other changes may not be delivered yet) is never expected; should one come it is not
     * delivered, and a progress is asked for instead (a command: the one allocation here), which
     * the shard answers once that revision is whole.
     */
    private void deliverProgress(final WatchListener listener, final long revision)
    {
        final long complete = Math.max(deliveredThrough(), revision);
        if (deliveredAtResume > 0 && complete < resumeRevision)
        {
            watcher.requestProgress();
            return;
        }
        knownComplete = complete;
        try
        {
            listener.onProgress(complete);
        }
        catch (final RuntimeException | Error e)
        {
            watcher.terminate(CancelReason.LISTENER_FAILED, 0, e, "the listener threw " + e);
        }
    }
}
