package io.ringwatch.engine.dispatch;

import io.ringwatch.engine.history.History;
import io.ringwatch.engine.history.HistoryReader;
import io.ringwatch.engine.secondary.IndexFunction;
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
import java.util.function.LongConsumer;

/**
 * One watch: what it asked for, its queue of pending window sequences, and how it ends. Push
 * and pull watchers share all of it and differ only in who drains the queue and how that
 * consumer is woken ({@link #signal()}), the way a Disruptor EventHandler and EventPoller share
 * one ring.
 *
 * <p>Threads: the owning {@link Dispatcher} alone offers to the queue and touches the
 * dispatcher-owned fields; one consumer at a time drains it ({@link #drain}); any thread may
 * cancel. The queue holds window sequences (>= 0) and progress markers (negative, see
 * {@link #progressMarker(long)}), so a watcher costs a few longs per pending event and nothing
 * per event it does not match.
 *
 * <p>Catching up. With a {@link History}, a watcher the window cannot serve (its start revision
 * was evicted, the window lapped it or its dispatcher, or its queue overflowed) is not
 * cancelled: the dispatcher takes it off the routes, and its consumer reads the history from
 * the exact point it has delivered up to (a revision and how many of that revision's events),
 * then asks the dispatcher to rejoin it at the next revision, which replays the window from
 * there before routing it again. The consumer tracks that point for every event it hands over,
 * so the hand-over has no gap and no duplicate however often it happens.
 */
abstract class WatcherState implements Watcher
{
    private static final VarHandle CANCELLATION;
    private static final LongConsumer DISCARD = entry -> { };
    private static final int MATCH_SHIFT = 61;
    private static final long SEQUENCE_MASK = (1L << MATCH_SHIFT) - 1;

    static
    {
        try
        {
            CANCELLATION = MethodHandles.lookup().findVarHandle(WatcherState.class, "cancellation", WatchCancellation.class);
        }
        catch (final ReflectiveOperationException e)
        {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final long id;
    private final WatchRequest request;
    private final long startRevision;
    final PendingQueue pending;
    final Dispatcher dispatcher;
    final WatchWindow window;
    private final long cancelWaitNanos;
    private final History history;

    private volatile WatchCancellation cancellation;
    /** The thread inside {@link #drain}, if any: {@link #cancel()} waits for it to leave. */
    private volatile Thread consumer;
    private boolean cancellationDelivered;

    /** Dispatcher-owned: the dispatcher batch that last touched this watcher. */
    long touchedInBatch = -1;
    /** Dispatcher-owned: position in the dispatcher's registry, -1 when not registered. */
    int registryIndex = -1;
    /** Dispatcher-owned: position in the dispatcher's progress list, -1 when not in it. */
    int progressIndex = -1;
    /** Dispatcher-owned: the first revision the routes may offer this watcher. */
    long routedFrom;

    /** Written by the dispatcher: true while the routes may offer this watcher events. */
    private volatile boolean routed;
    /** Set by the dispatcher, cleared by the consumer: the window cannot serve this watcher. */
    private volatile boolean catchUpRequested;
    /** Written by the dispatcher: the last rejoin request it has routed the watcher for. */
    private volatile int joinedTicket;

    /** Consumer-owned: where delivery stands, see the class comment. */
    private int mode = SYNCED;
    /** Consumer-owned: every event before this revision has been delivered... */
    private long resumeRevision;
    /** Consumer-owned: ...and this many of its own matching events. */
    private int deliveredAtResume;
    /** Consumer-owned: matching events of {@code resumeRevision} the history reader must skip. */
    private int historySkip;
    /** Consumer-owned: the open history reader while catching up. */
    private HistoryReader historyReader;
    /** Consumer-owned: the history reader found no more changes on its last attempt. */
    private boolean historyAtEnd;
    /** Consumer-owned: the last rejoin request sent. */
    private int rejoinTicket;

    private static final int SYNCED = 0;
    private static final int CATCHING_UP = 1;
    private static final int REJOINING = 2;
    /**
     * For a watch by index, the index's function, resolved when the watch is created and set
     * before the watcher is registered (the registration command publishes it); else null.
     */
    IndexFunction indexFunction;
    /** For a watch by index, the index value watched; else null. Set with {@link #indexFunction}. */
    byte[] indexValue;

    WatcherState(
        final long id,
        final WatchRequest request,
        final long startRevision,
        final Dispatcher dispatcher,
        final WatchWindow window,
        final PendingQueue pending,
        final long cancelWaitNanos,
        final History history)
    {
        this.id = id;
        this.request = request;
        this.startRevision = startRevision;
        this.dispatcher = dispatcher;
        this.window = window;
        this.pending = pending;
        this.cancelWaitNanos = cancelWaitNanos;
        this.history = history;
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
        indexFunction = function;
        indexValue = request.indexValue();
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
        if (!isCancelled())
        {
            dispatcher.requestProgress(this);
        }
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
            dispatcher.requestRemoval(this);
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
     * @return true when the watcher can catch up from a history instead of ending when the
     * window cannot serve it.
     */
    boolean canCatchUp()
    {
        // A watch by index needs its function's verdict per event, which only the dispatcher has.
        return history != null && indexFunction == null;
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
                return !pending.isEmpty();
            case CATCHING_UP:
                // At the end of the history it waits for the dispatcher to confirm it is unrouted.
                return !historyAtEnd || !routed;
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
            final long entry = pending.peek();
            if (entry == PendingQueue.EMPTY)
            {
                break;
            }
            if (entry < 0)
            {
                delivered += flush(listener, batch);
                pending.poll();
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
            if (window.read(entry & SEQUENCE_MASK, record) != WatchWindow.READ_OK)
            {
                if (history == null)
                {
                    if (cancellation != null)
                    {
                        // Ended already (the engine closed): what the window lost cannot be delivered;
                        // drop it so the cancellation goes out instead of this read failing forever.
                        pending.drain(DISCARD, Integer.MAX_VALUE);
                    }
                    else
                    {
                        terminate(CancelReason.LAPPED, window.oldestRevision(), null,
                            "the watch window overwrote events this watcher had not consumed");
                    }
                    break;
                }
                delivered += flush(listener, batch);
                beginCatchUp();
                dispatcher.requestUnroute(this);
                delivered += catchUp(listener, batch, maxEvents - delivered);
                break;
            }
            pending.poll();
            commit(batch, record, (int)(entry >>> MATCH_SHIFT));
        }
        delivered += flush(listener, batch);
        if (!eventsStillFlow() || (cancellation != null && mode != SYNCED))
        {
            // Nothing more is delivered: drop what is queued so the watcher reads as drained.
            pending.drain(DISCARD, Integer.MAX_VALUE);
            closeHistory();
        }
        final WatchCancellation ending = cancellation;
        if (ending != null && !cancellationDelivered && (!eventsStillFlow() || pending.isEmpty() || mode != SYNCED))
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
        }
    }

    private void beginCatchUp()
    {
        mode = CATCHING_UP;
        historyAtEnd = false;
        closeHistory();
    }

    /**
     * Delivers from the history from the resume point; at its end, once the dispatcher has
     * taken the watcher off the routes, asks to rejoin the window at the next revision.
     */
    private int catchUp(final WatchListener listener, final EventBatchView batch, final int maxEvents)
    {
        if (cancellation != null)
        {
            return 0;
        }
        int delivered = 0;
        try
        {
            if (historyReader == null && !openHistory())
            {
                return 0;
            }
            historyAtEnd = false;
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
                if (!historyReader.next(record))
                {
                    historyAtEnd = true;
                    break;
                }
                if (!wants(record, resumeRevision))
                {
                    continue;
                }
                if (record.revision() == resumeRevision && historySkip > 0)
                {
                    historySkip--;
                    continue;
                }
                commit(batch, record, IndexMatch.AS_IS);
            }
        }
        catch (final RuntimeException e)
        {
            delivered += flush(listener, batch);
            terminate(CancelReason.REVISION_UNAVAILABLE, history.firstRevision(), e,
                "reading the revision log failed: " + e);
            return delivered;
        }
        delivered += flush(listener, batch);
        if (historyAtEnd)
        {
            final long read = historyReader.lastRevision();
            if (read >= resumeRevision)
            {
                resumeRevision = read + 1;
                deliveredAtResume = 0;
            }
            if (!routed && deliveredAtResume == 0 && cancellation == null)
            {
                rejoin();
            }
        }
        return delivered;
    }

    private boolean openHistory()
    {
        final HistoryReader reader = history.newReader();
        if (!reader.seek(resumeRevision))
        {
            reader.close();
            terminate(CancelReason.REVISION_UNAVAILABLE, history.firstRevision(), null,
                "revision " + resumeRevision + " is no longer in the revision log");
            return false;
        }
        historyReader = reader;
        historySkip = deliveredAtResume;
        return true;
    }

    private void rejoin()
    {
        // Unrouted, so nothing more arrives: what is queued is stale, the history delivered it.
        pending.drain(DISCARD, Integer.MAX_VALUE);
        closeHistory();
        mode = REJOINING;
        rejoinTicket++;
        // Any catch-up request still set belongs to the routing this rejoin replaces (the
        // dispatcher requests before it unroutes); only requests made from here on are news.
        catchUpRequested = false;
        dispatcher.requestRejoin(this, resumeRevision, rejoinTicket);
    }

    private void closeHistory()
    {
        final HistoryReader reader = historyReader;
        if (reader != null)
        {
            historyReader = null;
            reader.close();
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
        batch.clear();
        return size;
    }

    private void deliverProgress(final WatchListener listener, final long revision)
    {
        try
        {
            listener.onProgress(revision);
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
        final long deadline = System.nanoTime() + cancelWaitNanos;
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
