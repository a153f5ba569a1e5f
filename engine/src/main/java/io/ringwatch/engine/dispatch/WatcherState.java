package io.ringwatch.engine.dispatch;

import io.ringwatch.engine.secondary.IndexFunction;
import io.ringwatch.engine.secondary.IndexFunctionException;
import io.ringwatch.engine.secondary.IndexMatch;
import io.ringwatch.engine.watch.CancelReason;
import io.ringwatch.engine.watch.WatchCancellation;
import io.ringwatch.engine.watch.WatchListener;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.engine.watch.Watcher;
import io.ringwatch.ringbuffer.EventRecord;
import io.ringwatch.ringbuffer.EventType;
import io.ringwatch.ringbuffer.WatchWindow;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One watch as its users hold it: what it asked for, the queue of routed events its dispatcher
 * fills, the point up to which its consumer has delivered, and how it ends. Push and pull
 * watchers share all of it and differ only in who drains it and how that consumer is woken
 * ({@link #signal()}), the way a Disruptor EventHandler and EventPoller share one ring.
 *
 * <p>Threads. Each thread's state has its own class: the owning {@link Dispatcher} alone writes
 * the fields of {@link ShardFields} and the queue reference; one consumer at a time drains the
 * watcher ({@link #drain}) and owns the fields of {@link ConsumerFields} (the delivery point and
 * the {@link CatchUpCursor}); this class holds what users hold and what threads hand each other
 * (the volatile flags); any thread may cancel it or ask for progress. The queue holds window sequences (>= 0) and progress
 * markers (negative, see {@link #progressMarker(long)}); it is allocated by the dispatcher with
 * the first event it routes to the watcher and dropped when the watcher leaves the routes or
 * ends, so an idle watcher holds none.
 *
 * <p>The life of a watch. It starts at one revision, its {@link #startRevision()}. The
 * dispatcher replays the window from there and routes it ({@code routedFrom} is where the
 * routes take over). While its queue keeps up it is SYNCED: the consumer delivers what the
 * queue names. When the queue is full (its depth, or the shard's pending budget, is spent),
 * or the window no longer holds the start, or the window lapped the consumer, the dispatcher
 * takes it off the routes and it CATCHES UP: the consumer reads the history by its own cursor,
 * filtering by its range, from the exact point it has delivered up to (a revision and how many
 * of that revision's events). At the end of the history it asks to rejoin the routes at the next
 * revision (REJOINING); the dispatcher replays the window from there and routes it again. The
 * consumer tracks its point for every event it hands over, so the hand-over has no gap and no
 * duplicate however often it happens. Only when the history no longer holds its next event is
 * the watch cancelled (REVISION_UNAVAILABLE, naming the oldest revision held).
 *
 * <p>Progress. A progress notification with revision R is delivered only once every event up to R
 * is: the dispatcher queues a marker behind the events of the last revision it has routed
 * completely, and a catching-up consumer reports the revision boundaries it reaches. Requests and
 * periodic notifications collapse: at most one request is in flight and at most one marker is
 * queued per watcher.
 */
abstract class WatcherState extends ConsumerFields implements Watcher
{
    private static final VarHandle CANCELLATION;
    private static final VarHandle PROGRESS_REQUESTED;
    private static final VarHandle PROGRESS_WANTED;
    private static final int MATCH_SHIFT = 61;
    private static final long SEQUENCE_MASK = (1L << MATCH_SHIFT) - 1;

    static
    {
        try
        {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            CANCELLATION = lookup.findVarHandle(WatcherState.class, "cancellation", WatchCancellation.class);
            PROGRESS_REQUESTED = lookup.findVarHandle(WatcherState.class, "progressRequested", int.class);
            PROGRESS_WANTED = lookup.findVarHandle(WatcherState.class, "progressWanted", int.class);
        }
        catch (final ReflectiveOperationException e)
        {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final long id;
    private final WatchRequest request;
    private final long startRevision;
    /** What the watchers of this shard share: dispatcher, window, history, cancel wait, delivery. */
    final ShardContext shard;

    /** Written by the dispatcher: the routed events, null while none was routed since it joined. */
    volatile PendingQueue pending;

    private volatile WatchCancellation cancellation;
    /** The thread inside {@link #drain}, if any: {@link #cancel()} waits for it to leave. */
    private volatile Thread consumer;

    /** Written by the dispatcher: true while the routes may offer this watcher events. */
    private volatile boolean routed;
    /** Set by the dispatcher, cleared by the consumer: the window cannot serve this watcher. */
    private volatile boolean catchUpRequested;
    /** Written by the dispatcher: the last rejoin request it has routed the watcher for. */
    private volatile int joinedTicket;
    /** 1 while a progress request is on its way to the dispatcher: requests collapse into it. */
    @SuppressWarnings("unused")
    private volatile int progressRequested;
    /** 1 when the consumer owes a progress notification while off the routes; taken once. */
    @SuppressWarnings("unused")
    private volatile int progressWanted;

    /**
     * For a watch by index, the index's function and the value watched, set before the watcher
     * is registered (the registration command publishes it); else null.
     */
    IndexWatch index;

    WatcherState(
        final long id,
        final WatchRequest request,
        final long startRevision,
        final ShardContext shard)
    {
        this.id = id;
        this.request = request;
        this.startRevision = startRevision;
        this.shard = shard;
        this.routedFrom = startRevision;
        this.resumeRevision = startRevision;
    }

    /**
     * Wakes this watcher's consumer because its queue or its state changed. Called by the
     * dispatcher thread.
     *
     * @return false when the consumer could not be woken now and the caller must retry later.
     */
    abstract boolean signal();

    @Override
    public long id()
    {
        return id;
    }

    @Override
    public WatchRequest request()
    {
        return request;
    }

    /**
     * Makes this a watcher of its request's index value under {@code function}. Call before
     * registering it with the dispatcher.
     *
     * @param function the index's function.
     */
    void watchIndex(final IndexFunction function)
    {
        index = new IndexWatch(function, request.indexValue());
    }

    /**
     * @return the first revision this watcher delivers.
     */
    long startRevision()
    {
        return startRevision;
    }

    @Override
    public void cancel()
    {
        terminate(CancelReason.CANCELLED_BY_CLIENT, 0, null, "cancelled by the client");
        awaitConsumerExit();
    }

    @Override
    public boolean isCancelled()
    {
        return cancellation != null;
    }

    @Override
    public WatchCancellation cancellation()
    {
        return cancellation;
    }

    @Override
    public void requestProgress()
    {
        // One request in flight at a time: however often it is called, the dispatcher's command
        // queue and the watcher's queue hold at most one of them.
        if (!isCancelled() && PROGRESS_REQUESTED.compareAndSet(this, 0, 1))
        {
            shard.dispatcher.requestProgress(this);
        }
    }

    /**
     * Dispatcher thread, as it takes a progress request: later requests send a new one.
     */
    void progressRequestTaken()
    {
        progressRequested = 0;
    }

    /**
     * Dispatcher thread, with the watcher off the routes: its consumer owes a progress
     * notification at the next revision boundary it reaches.
     */
    void wantProgress()
    {
        progressWanted = 1;
    }

    /**
     * Takes the progress owed, if any: the consumer to deliver it, or the dispatcher to queue
     * it as a marker when the watcher rejoins. Any thread; exactly one taker wins.
     *
     * @return true when progress was owed.
     */
    boolean takeProgressWanted()
    {
        return progressWanted != 0 && (int)PROGRESS_WANTED.getAndSet(this, 0) != 0;
    }

    /**
     * Ends the watch with a reason, if it has not ended yet: the first reason wins. Any thread.
     *
     * @return true when this call ended it.
     */
    boolean terminate(final CancelReason reason, final long compactRevision, final Throwable cause, final String message)
    {
        if (cancellation != null)
        {
            return false;
        }
        final WatchCancellation ending = new WatchCancellation(reason, compactRevision, cause, message);
        if (CANCELLATION.compareAndSet(this, null, ending))
        {
            shard.dispatcher.requestRemoval(this);
            return true;
        }
        return false;
    }

    /**
     * @param record an event read from the window or the history.
     * @param from   the first revision wanted.
     * @return true when this watcher wants it: its key is in range, its revision is not before
     * {@code from}, and no filter drops it.
     */
    boolean wants(final EventRecord record, final long from)
    {
        return record.revision() >= from && passesFilters(record.type()) && inRange(record);
    }

    /**
     * Dispatcher thread: records that the routes offer this watcher events from now on, or no
     * longer do. Once false is written, the dispatcher offers nothing more.
     */
    void routed(final boolean routed)
    {
        this.routed = routed;
    }

    /**
     * @return true while the routes offer this watcher events.
     */
    boolean isRouted()
    {
        return routed;
    }

    /** Dispatcher thread, with the watcher off the routes: its consumer must catch up. */
    void requestCatchUp()
    {
        catchUpRequested = true;
    }

    /** Dispatcher thread: the watcher is routed again as its consumer asked with {@code ticket}. */
    void rejoined(final int ticket)
    {
        joinedTicket = ticket;
    }

    /**
     * @param type an event type.
     * @return false when a NOPUT / NODELETE filter drops it.
     */
    boolean passesFilters(final EventType type)
    {
        return type == EventType.PUT ? !request.isNoPut() : !request.isNoDelete();
    }

    /**
     * Hands pending events, progress notifications and, once, the cancellation to
     * {@code listener} on the calling thread. One consumer thread at a time.
     *
     * @param listener  receives them; an exception it throws cancels the watch.
     * @param batch     the consumer's reusable batch.
     * @param maxEvents the most events to hand over.
     * @return the number of events handed over.
     */
    int drain(final WatchListener listener, final EventBatchView batch, final int maxEvents)
    {
        consumer = Thread.currentThread();
        try
        {
            return drainEntered(listener, batch, maxEvents);
        }
        finally
        {
            consumer = null;
        }
    }

    /**
     * @return true when a call to {@link #drain} would hand over something.
     */
    boolean hasSomethingToDeliver()
    {
        if (cancellation != null)
        {
            // Once ended, only the cancellation (and, after a close, the queue before it) is left.
            return !cancellationDelivered;
        }
        if (catchUpRequested)
        {
            return true;
        }
        switch (mode)
        {
            case SYNCED:
                final PendingQueue queue = pending;
                return queue != null && !queue.isEmpty();
            case CATCHING_UP:
                // At the end of the history it waits for the dispatcher to confirm it is unrouted.
                final CatchUpCursor at = cursor;
                return at == null || !at.atEnd || !routed || progressWanted != 0;
            default:
                return joinedTicket == rejoinTicket;
        }
    }

    /**
     * @param sequence   an event's window sequence.
     * @param indexMatch how a watcher by index sees it ({@link IndexMatch}; AS_IS for key watchers).
     * @return the queue entry that carries both: the mode sits in bits 61-62, which no window
     * sequence reaches, and keeps the entry positive.
     */
    static long eventEntry(final long sequence, final int indexMatch)
    {
        return sequence | ((long)indexMatch << MATCH_SHIFT);
    }

    /**
     * @param revision a revision the watcher is complete up to.
     * @return the queue entry that carries it.
     */
    static long progressMarker(final long revision)
    {
        return -revision - 1;
    }

    private int drainEntered(final WatchListener listener, final EventBatchView batch, final int maxEvents)
    {
        int delivered = 0;
        batch.clear();
        if (catchUpRequested)
        {
            catchUpRequested = false;
            beginCatchUp();
        }
        if (mode == REJOINING && joinedTicket == rejoinTicket)
        {
            mode = SYNCED;
        }
        if (mode == CATCHING_UP)
        {
            delivered += catchUp(listener, batch, maxEvents);
        }
        while (mode == SYNCED && delivered + batch.size() < maxEvents && eventsStillFlow())
        {
            // Read once per entry: the dispatcher drops the queue when it unroutes the watcher,
            // and what this consumer delivers from the old one stays exact (it tracks its point).
            final PendingQueue queue = pending;
            final long entry = queue == null ? PendingQueue.EMPTY : queue.peek();
            if (entry == PendingQueue.EMPTY)
            {
                break;
            }
            if (entry < 0)
            {
                delivered += flush(listener, batch);
                queue.poll();
                if (eventsStillFlow())
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
            if (shard.window.read(entry & SEQUENCE_MASK, record) != WatchWindow.READ_OK)
            {
                if (cancellation != null)
                {
                    // Ended already (the engine closed): what the window lost cannot be delivered;
                    // drop it so the cancellation goes out instead of this read failing forever.
                    discardPending();
                    break;
                }
                delivered += flush(listener, batch);
                beginCatchUp();
                shard.dispatcher.requestUnroute(this);
                delivered += catchUp(listener, batch, maxEvents - delivered);
                break;
            }
            queue.poll();
            commit(batch, record, (int)(entry >>> MATCH_SHIFT));
        }
        delivered += flush(listener, batch);
        if (!eventsStillFlow() || (cancellation != null && mode != SYNCED))
        {
            // Nothing more is delivered: drop what is queued so the watcher reads as drained.
            discardPending();
            closeCursor();
        }
        final WatchCancellation ending = cancellation;
        if (ending != null && !cancellationDelivered && (!eventsStillFlow() || isDrained() || mode != SYNCED))
        {
            cancellationDelivered = true;
            try
            {
                listener.onCancelled(ending);
            }
            catch (final RuntimeException ignore)
            {
                // The watch has ended either way; nothing is left to protect.
            }
        }
        return delivered;
    }

    private boolean isDrained()
    {
        final PendingQueue queue = pending;
        return queue == null || queue.isEmpty();
    }

    private void discardPending()
    {
        final PendingQueue queue = pending;
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
        batch.commit(request.prevKv(), indexMatch);
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
     * boundaries it reaches; at its end, once the dispatcher has taken the watcher off the
     * routes, asks to rejoin the window at the next revision.
     */
    private int catchUp(final WatchListener listener, final EventBatchView batch, final int maxEvents)
    {
        if (cancellation != null)
        {
            return 0;
        }
        final CatchUpCursor at = cursor;
        if (compactedUnder(at))
        {
            return 0;
        }
        int delivered = 0;
        try
        {
            if (at.reader() == null && !openCursor(at))
            {
                return 0;
            }
            at.atEnd = false;
            while (delivered + batch.size() < maxEvents)
            {
                if (batch.isFull())
                {
                    delivered += flush(listener, batch);
                    if (cancellation != null)
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
                final long revision = record.revision();
                if (revision != at.lastRead)
                {
                    if (at.lastRead != 0 && takeProgressWanted())
                    {
                        // Every event of lastRead is in the batch or delivered: report it before
                        // this event of a later revision, which stays in its slot meanwhile.
                        delivered += flushKeepingNext(listener, batch);
                        deliverProgress(listener, at.lastRead);
                        if (cancellation != null)
                        {
                            return delivered;
                        }
                    }
                    at.lastRead = revision;
                }
                final int mode = index == null ? IndexMatch.AS_IS : at.indexMatch(request.indexName(), index, record);
                if (mode == IndexMatch.NONE || revision < resumeRevision || !passesFilters(typeSeen(record, mode)) ||
                    !inRange(record))
                {
                    continue;
                }
                if (revision == resumeRevision && at.skip > 0)
                {
                    at.skip--;
                    continue;
                }
                commit(batch, record, mode);
            }
        }
        catch (final IndexFunctionException e)
        {
            delivered += flush(listener, batch);
            terminate(CancelReason.INDEX_FUNCTION_FAILED, 0, e, "the index function threw while catching up: " + e);
            return delivered;
        }
        catch (final RuntimeException e)
        {
            delivered += flush(listener, batch);
            terminate(CancelReason.REVISION_UNAVAILABLE, shard.history.resumeRevision(), e,
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
            if (deliveredAtResume == 0 && cancellation == null)
            {
                // The end falls between revisions: everything before resumeRevision is delivered.
                if (takeProgressWanted())
                {
                    deliverProgress(listener, resumeRevision - 1);
                }
                if (!routed && cancellation == null)
                {
                    rejoin();
                }
            }
        }
        return delivered;
    }

    /** The type the watcher sees an event as, given how it matches a watch by index. */
    private static EventType typeSeen(final EventRecord record, final int mode)
    {
        if (mode == IndexMatch.AS_DELETE)
        {
            return EventType.DELETE;
        }
        return mode == IndexMatch.AS_ADD ? EventType.PUT : record.type();
    }

    /**
     * A watcher reading by cursor whose position is before the compaction point is cancelled
     * COMPACTED with that point, as etcd cancels its unsynced watchers behind a compaction.
     */
    private boolean compactedUnder(final CatchUpCursor at)
    {
        final long compacted = shard.compactRevision.getAsLong();
        final long position = at.lastRead != 0 ? at.lastRead : resumeRevision;
        if (position >= compacted)
        {
            return false;
        }
        terminate(CancelReason.COMPACTED, compacted, null,
            "revision " + position + " has been compacted; compact revision is " + compacted);
        return true;
    }

    private boolean openCursor(final CatchUpCursor at)
    {
        if (!at.open(shard.history, resumeRevision, deliveredAtResume))
        {
            terminate(CancelReason.REVISION_UNAVAILABLE, shard.history.resumeRevision(), null,
                "revision " + resumeRevision + " is older than the oldest revision held");
            return false;
        }
        return true;
    }

    private void rejoin()
    {
        closeCursor();
        mode = REJOINING;
        rejoinTicket++;
        // Any catch-up request still set belongs to the routing this rejoin replaces (the
        // dispatcher requests before it unroutes); only requests made from here on are news.
        catchUpRequested = false;
        shard.dispatcher.requestRejoin(this, resumeRevision, rejoinTicket);
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

    /**
     * Events flow while the watch runs and, after the engine closed, until the queue is empty:
     * a close is graceful, every other ending stops delivery at once.
     */
    private boolean eventsStillFlow()
    {
        final WatchCancellation ending = cancellation;
        return ending == null || ending.reason() == CancelReason.ENGINE_CLOSED;
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
        if (eventsStillFlow())
        {
            try
            {
                listener.onEvents(batch);
            }
            catch (final RuntimeException | Error e)
            {
                terminate(CancelReason.LISTENER_FAILED, 0, e, "the listener threw " + e);
            }
        }
    }

    /**
     * Delivers progress: the larger of {@code revision} and what the consumer knows complete
     * itself, so it never goes back behind an event or a progress delivered before.
     */
    private void deliverProgress(final WatchListener listener, final long revision)
    {
        final long complete = Math.max(knownComplete, revision);
        knownComplete = complete;
        try
        {
            listener.onProgress(complete);
        }
        catch (final RuntimeException | Error e)
        {
            terminate(CancelReason.LISTENER_FAILED, 0, e, "the listener threw " + e);
        }
    }

    private boolean inRange(final EventRecord record)
    {
        return request.range().contains(record.key(), record.keyLength());
    }

    private void awaitConsumerExit()
    {
        final Thread self = Thread.currentThread();
        final long deadline = System.nanoTime() + shard.cancelWaitNanos;
        Thread inside = consumer;
        while (inside != null && inside != self && System.nanoTime() < deadline)
        {
            Thread.yield();
            inside = consumer;
        }
    }

    @Override
    public String toString()
    {
        return getClass().getSimpleName() + "(id=" + id + ", " + request + ", start=" + startRevision +
            (cancellation != null ? ", " + cancellation : "") + ")";
    }
}
