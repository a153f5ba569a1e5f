package io.ringwatch.engine.dispatch;

import io.ringwatch.engine.kv.KeyRange;
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
abstract class WatcherState implements Watcher
{
    /** Option: events carry the previous key-value. */
    private static final int PREV_KV = 1;
    /** Option: PUT events are filtered out. */
    private static final int NO_PUT = 1 << 1;
    /** Option: DELETE events are filtered out. */
    private static final int NO_DELETE = 1 << 2;
    /** Option: periodic progress notifications are wanted. */
    private static final int PROGRESS_NOTIFY = 1 << 3;
    /** Option: the request asked to start "from now" (start revision 0). */
    private static final int FROM_NOW = 1 << 4;
    /** Set by the dispatcher: the routes may offer this watcher events. Once cleared, they offer nothing more. */
    private static final int ROUTED = 1 << 8;
    /** Set by the dispatcher, cleared by the consumer: the window cannot serve this watcher. */
    private static final int CATCH_UP_REQUESTED = 1 << 9;
    /** Set while a progress request is on its way to the dispatcher: requests collapse into it. */
    private static final int PROGRESS_REQUESTED = 1 << 10;
    /** Set when the consumer owes a progress notification while off the routes; taken once. */
    private static final int PROGRESS_WANTED = 1 << 11;

    private static final VarHandle CANCELLATION;
    private static final VarHandle FLAGS;
    private static final int MATCH_SHIFT = 61;
    private static final long SEQUENCE_MASK = (1L << MATCH_SHIFT) - 1;

    static
    {
        try
        {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            CANCELLATION = lookup.findVarHandle(WatcherState.class, "cancellation", WatchCancellation.class);
            FLAGS = lookup.findVarHandle(WatcherState.class, "flags", int.class);
        }
        catch (final ReflectiveOperationException e)
        {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final long id;
    private final long startRevision;
    /** What the watchers of this shard share: dispatcher, window, history, cancel wait, delivery. */
    final ShardContext shard;
    /**
     * What it watches: the key of an exact-key watch (a {@code byte[]}, the request's own immutable
     * copy), the {@link KeyRange} of any other watch by key, or the {@link IndexWatch} of a watch by
     * index. One field for the three because most watchers watch one key and hold only its bytes.
     */
    private final Object target;

    /**
     * The immutable options (low byte) and the bits threads hand each other (above it): one int, so
     * an idle watcher pays four bytes for nine flags. The mutable bits change only by atomic
     * read-modify-write, so no writer loses another's bit.
     */
    private volatile int flags;
    private volatile WatchCancellation cancellation;
    /** The thread inside {@link #drain}, if any: {@link #cancel()} waits for it to leave. */
    private volatile Thread consumer;

    /** Dispatcher thread only: position in the shard's registry, -1 when not registered. */
    int registryIndex = -1;
    /** The shard's fields, allocated by the dispatcher when first needed; null while idle. */
    private volatile ShardFields shardFields;
    /** The consumer's fields, allocated by the consumer when it first has something to deliver. */
    private ConsumerFields consumerFields;

    WatcherState(
        final long id,
        final WatchRequest request,
        final long startRevision,
        final ShardContext shard,
        final IndexFunction indexFunction)
    {
        this.id = id;
        this.startRevision = startRevision;
        this.shard = shard;
        this.target = request.isIndexWatch() ? new IndexWatch(request.indexName(), indexFunction, request.indexValue()) :
            request.range().isSingleKey() ? request.range().fromKey() : request.range();
        this.flags = (request.prevKv() ? PREV_KV : 0) | (request.isNoPut() ? NO_PUT : 0) |
            (request.isNoDelete() ? NO_DELETE : 0) | (request.progressNotify() ? PROGRESS_NOTIFY : 0) |
            (request.startRevision() == 0 ? FROM_NOW : 0);
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

    /**
     * Rebuilt from what the watcher keeps, so it does not keep the caller's request: equal to the
     * request it was created with, a new instance each call.
     */
    @Override
    public WatchRequest request()
    {
        final Object watched = target;
        WatchRequest request = watched instanceof IndexWatch ?
            WatchRequest.byIndex(((IndexWatch)watched).name, ((IndexWatch)watched).value) :
            WatchRequest.of(watched instanceof byte[] ? KeyRange.key((byte[])watched) : (KeyRange)watched);
        final int options = flags;
        if ((options & FROM_NOW) == 0)
        {
            request = request.startRevision(startRevision);
        }
        request = (options & PREV_KV) != 0 ? request.withPrevKv() : request;
        request = (options & NO_PUT) != 0 ? request.noPut() : request;
        request = (options & NO_DELETE) != 0 ? request.noDelete() : request;
        return (options & PROGRESS_NOTIFY) != 0 ? request.withProgressNotify() : request;
    }

    /**
     * @return the key of an exact-key watch (never to be changed), else null.
     */
    byte[] exactKey()
    {
        return target instanceof byte[] ? (byte[])target : null;
    }

    /**
     * @return the range of a watch by key that is not an exact-key watch, else null.
     */
    KeyRange keyRange()
    {
        return target instanceof KeyRange ? (KeyRange)target : null;
    }

    /**
     * @return what a watch by index watches, else null.
     */
    IndexWatch index()
    {
        return target instanceof IndexWatch ? (IndexWatch)target : null;
    }

    /**
     * @return true when the watcher asked for periodic progress notifications.
     */
    boolean wantsPeriodicProgress()
    {
        return (flags & PROGRESS_NOTIFY) != 0;
    }

    /**
     * Dispatcher thread: the shard's fields of this watcher, allocated on first use.
     *
     * @return the fields.
     */
    ShardFields shardFields()
    {
        ShardFields fields = shardFields;
        if (fields == null)
        {
            fields = new ShardFields(startRevision);
            shardFields = fields;
        }
        return fields;
    }

    /**
     * @return the shard's fields of this watcher, or null while it has none (idle).
     */
    ShardFields shardFieldsOrNull()
    {
        return shardFields;
    }

    /**
     * Dispatcher thread, as the watcher ends: drops the shard's fields, its queue among them.
     */
    void dropShardFields()
    {
        shardFields = null;
    }

    /**
     * @return true once the consumer has allocated its fields: it had something to deliver. Any
     * thread, for tests of what an idle watcher holds; exact only from the consumer's thread.
     */
    boolean hasConsumerFields()
    {
        return consumerFields != null;
    }

    /**
     * @return the queue of routed events, or null while there is none.
     */
    PendingQueue pending()
    {
        final ShardFields fields = shardFields;
        return fields == null ? null : fields.pending;
    }

    /**
     * Dispatcher thread: the routes offer this watcher the events from {@code revision} on.
     *
     * @param revision the revision it joins at.
     */
    void joinAt(final long revision)
    {
        if (revision != startRevision || shardFields != null)
        {
            shardFields().routedFrom = revision;
        }
    }

    /**
     * @return the first revision the routes offer this watcher.
     */
    long routedFrom()
    {
        final ShardFields fields = shardFields;
        return fields == null ? startRevision : fields.routedFrom;
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
        if (!isCancelled() && ((int)FLAGS.getAndBitwiseOr(this, PROGRESS_REQUESTED) & PROGRESS_REQUESTED) == 0)
        {
            shard.dispatcher.requestProgress(this);
        }
    }

    /**
     * Dispatcher thread, as it takes a progress request: later requests send a new one.
     */
    void progressRequestTaken()
    {
        FLAGS.getAndBitwiseAnd(this, ~PROGRESS_REQUESTED);
    }

    /**
     * Dispatcher thread, with the watcher off the routes: its consumer owes a progress
     * notification at the next revision boundary it reaches.
     */
    void wantProgress()
    {
        FLAGS.getAndBitwiseOr(this, PROGRESS_WANTED);
    }

    /**
     * Takes the progress owed, if any: the consumer to deliver it, or the dispatcher to queue
     * it as a marker when the watcher rejoins. Any thread; exactly one taker wins.
     *
     * @return true when progress was owed.
     */
    boolean takeProgressWanted()
    {
        return (flags & PROGRESS_WANTED) != 0 && ((int)FLAGS.getAndBitwiseAnd(this, ~PROGRESS_WANTED) & PROGRESS_WANTED) != 0;
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
     * @return true when the watcher can read the history by its own cursor instead of ending
     * when its queue or the window cannot serve it.
     */
    boolean canCatchUp()
    {
        // A watch by index needs its function's verdict per event, which only the dispatcher has.
        return !(target instanceof IndexWatch);
    }

    /**
     * Dispatcher thread: records that the routes offer this watcher events from now on, or no
     * longer do. Once false is written, the dispatcher offers nothing more.
     */
    void routed(final boolean routed)
    {
        if (routed)
        {
            FLAGS.getAndBitwiseOr(this, ROUTED);
        }
        else
        {
            FLAGS.getAndBitwiseAnd(this, ~ROUTED);
        }
    }

    /**
     * @return true while the routes offer this watcher events.
     */
    boolean isRouted()
    {
        return (flags & ROUTED) != 0;
    }

    /** Dispatcher thread, with the watcher off the routes: its consumer must catch up. */
    void requestCatchUp()
    {
        FLAGS.getAndBitwiseOr(this, CATCH_UP_REQUESTED);
    }

    /** Dispatcher thread: the watcher is routed again as its consumer asked with {@code ticket}. */
    void rejoined(final int ticket)
    {
        if (ticket != 0)
        {
            shardFields().joinedTicket = ticket;
        }
    }

    /**
     * @param type an event type.
     * @return false when a NOPUT / NODELETE filter drops it.
     */
    boolean passesFilters(final EventType type)
    {
        return (flags & (type == EventType.PUT ? NO_PUT : NO_DELETE)) == 0;
    }

    /**
     * Hands pending events, progress notifications and, once, the cancellation to
     * {@code listener} on the calling thread. One consumer thread at a time. Allocates the
     * consumer's fields the first time there is something to hand over.
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
            ConsumerFields own = consumerFields;
            if (own == null)
            {
                if (!hasSomethingToDeliver())
                {
                    // Still idle: nothing to track, so nothing to allocate.
                    return 0;
                }
                own = new ConsumerFields(startRevision);
                consumerFields = own;
            }
            return drainEntered(own, listener, batch, maxEvents);
        }
        finally
        {
            consumer = null;
        }
    }

    /**
     * @return true when a call to {@link #drain} would hand over something. The consumer's thread.
     */
    boolean hasSomethingToDeliver()
    {
        final ConsumerFields own = consumerFields;
        if (cancellation != null)
        {
            // Once ended, only the cancellation (and, after a close, the queue before it) is left.
            return own == null || !own.cancellationDelivered;
        }
        if ((flags & CATCH_UP_REQUESTED) != 0)
        {
            return true;
        }
        switch (own == null ? ConsumerFields.SYNCED : own.mode)
        {
            case ConsumerFields.SYNCED:
                final PendingQueue queue = pending();
                return queue != null && !queue.isEmpty();
            case ConsumerFields.CATCHING_UP:
                // At the end of the history it waits for the dispatcher to confirm it is unrouted.
                final CatchUpCursor at = own.cursor;
                return at == null || !at.atEnd || (flags & (ROUTED | PROGRESS_WANTED)) != ROUTED;
            default:
                return joinedTicket() == own.rejoinTicket;
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

    private int drainEntered(
        final ConsumerFields own, final WatchListener listener, final EventBatchView batch, final int maxEvents)
    {
        int delivered = 0;
        batch.clear();
        if ((flags & CATCH_UP_REQUESTED) != 0 && ((int)FLAGS.getAndBitwiseAnd(this, ~CATCH_UP_REQUESTED) & CATCH_UP_REQUESTED) != 0)
        {
            beginCatchUp(own);
        }
        if (own.mode == ConsumerFields.REJOINING && joinedTicket() == own.rejoinTicket)
        {
            own.mode = ConsumerFields.SYNCED;
        }
        if (own.mode == ConsumerFields.CATCHING_UP)
        {
            delivered += catchUp(own, listener, batch, maxEvents);
        }
        while (own.mode == ConsumerFields.SYNCED && delivered + batch.size() < maxEvents && eventsStillFlow())
        {
            // Read once per entry: the dispatcher drops the queue when it unroutes the watcher,
            // and what this consumer delivers from the old one stays exact (it tracks its point).
            final PendingQueue queue = pending();
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
                    deliverProgress(own, listener, -entry - 1);
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
                beginCatchUp(own);
                shard.dispatcher.requestUnroute(this);
                delivered += catchUp(own, listener, batch, maxEvents - delivered);
                break;
            }
            queue.poll();
            commit(own, batch, record, (int)(entry >>> MATCH_SHIFT));
        }
        delivered += flush(listener, batch);
        if (!eventsStillFlow() || (cancellation != null && own.mode != ConsumerFields.SYNCED))
        {
            // Nothing more is delivered: drop what is queued so the watcher reads as drained.
            discardPending();
            closeCursor(own);
        }
        final WatchCancellation ending = cancellation;
        if (ending != null && !own.cancellationDelivered &&
            (!eventsStillFlow() || isDrained() || own.mode != ConsumerFields.SYNCED))
        {
            own.cancellationDelivered = true;
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

    private int joinedTicket()
    {
        final ShardFields fields = shardFields;
        return fields == null ? 0 : fields.joinedTicket;
    }

    private boolean isDrained()
    {
        final PendingQueue queue = pending();
        return queue == null || queue.isEmpty();
    }

    private void discardPending()
    {
        final PendingQueue queue = pending();
        if (queue != null)
        {
            while (queue.poll() != PendingQueue.EMPTY)
            {
                // Only emptied here; the dispatcher frees it.
            }
        }
    }

    private void commit(final ConsumerFields own, final EventBatchView batch, final EventRecord record, final int indexMatch)
    {
        batch.commit((flags & PREV_KV) != 0, indexMatch);
        final long revision = record.revision();
        if (revision == own.resumeRevision)
        {
            own.deliveredAtResume++;
        }
        else
        {
            own.resumeRevision = revision;
            own.deliveredAtResume = 1;
            own.knownComplete = Math.max(own.knownComplete, revision - 1);
        }
    }

    private static void beginCatchUp(final ConsumerFields own)
    {
        own.mode = ConsumerFields.CATCHING_UP;
        if (own.cursor == null)
        {
            own.cursor = new CatchUpCursor();
        }
        else
        {
            own.cursor.close();
        }
    }

    /**
     * Delivers from the history from the resume point, reporting owed progress at the revision
     * boundaries it reaches; at its end, once the dispatcher has taken the watcher off the
     * routes, asks to rejoin the window at the next revision.
     */
    private int catchUp(final ConsumerFields own, final WatchListener listener, final EventBatchView batch, final int maxEvents)
    {
        if (cancellation != null)
        {
            return 0;
        }
        final CatchUpCursor at = own.cursor;
        int delivered = 0;
        try
        {
            if (at.reader() == null && !openCursor(own, at))
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
                        deliverProgress(own, listener, at.lastRead);
                        if (cancellation != null)
                        {
                            return delivered;
                        }
                    }
                    at.lastRead = revision;
                }
                if (!wants(record, own.resumeRevision))
                {
                    continue;
                }
                if (revision == own.resumeRevision && at.skip > 0)
                {
                    at.skip--;
                    continue;
                }
                commit(own, batch, record, IndexMatch.AS_IS);
            }
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
            if (read >= own.resumeRevision)
            {
                own.resumeRevision = read + 1;
                own.deliveredAtResume = 0;
            }
            if (own.deliveredAtResume == 0 && cancellation == null)
            {
                // The end falls between revisions: everything before resumeRevision is delivered.
                if (takeProgressWanted())
                {
                    deliverProgress(own, listener, own.resumeRevision - 1);
                }
                if (!isRouted() && cancellation == null)
                {
                    rejoin(own);
                }
            }
        }
        return delivered;
    }

    private boolean openCursor(final ConsumerFields own, final CatchUpCursor at)
    {
        if (!at.open(shard.history, own.resumeRevision, own.deliveredAtResume))
        {
            terminate(CancelReason.REVISION_UNAVAILABLE, shard.history.resumeRevision(), null,
                "revision " + own.resumeRevision + " is older than the oldest revision held");
            return false;
        }
        return true;
    }

    private void rejoin(final ConsumerFields own)
    {
        closeCursor(own);
        own.mode = ConsumerFields.REJOINING;
        own.rejoinTicket++;
        // Any catch-up request still set belongs to the routing this rejoin replaces (the
        // dispatcher requests before it unroutes); only requests made from here on are news.
        FLAGS.getAndBitwiseAnd(this, ~CATCH_UP_REQUESTED);
        shard.dispatcher.requestRejoin(this, own.resumeRevision, own.rejoinTicket);
    }

    private static void closeCursor(final ConsumerFields own)
    {
        final CatchUpCursor at = own.cursor;
        if (at != null)
        {
            own.cursor = null;
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
    private void deliverProgress(final ConsumerFields own, final WatchListener listener, final long revision)
    {
        final long complete = Math.max(own.knownComplete, revision);
        own.knownComplete = complete;
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
        final Object watched = target;
        if (watched instanceof byte[])
        {
            final byte[] key = (byte[])watched;
            return record.keyLength() == key.length && KeyRange.compare(record.key(), key.length, key) == 0;
        }
        // A watch by index is routed by its index value, never by range: every key is in it.
        return !(watched instanceof KeyRange) || ((KeyRange)watched).contains(record.key(), record.keyLength());
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
        return getClass().getSimpleName() + "(id=" + id + ", " + request() + ", start=" + startRevision +
            (cancellation != null ? ", " + cancellation : "") + ")";
    }
}
