package io.ringwatch.engine.internal.dispatch;

import io.ringwatch.engine.internal.secondary.IndexMatch;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.secondary.IndexFunction;
import io.ringwatch.engine.watch.CancelReason;
import io.ringwatch.engine.watch.WatchCancellation;
import io.ringwatch.engine.watch.WatchListener;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.engine.watch.Watcher;
import io.ringwatch.ringbuffer.EventRecord;
import io.ringwatch.ringbuffer.EventType;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One watch as its users hold it: the handle, with what it watches, how it ends, and the flags
 * its threads hand each other. Push and pull watchers share all of it and differ only in who
 * drains it and how that consumer is woken ({@link #signal()}), the way a Disruptor EventHandler
 * and EventPoller share one ring.
 *
 * <p>Threads and memory. Each thread's state has its own class, allocated when that thread first
 * needs it, so that an idle exact-key watcher is this handle alone (64 bytes with compressed
 * references), its key (the request's own copy, shared with the routes) and its route and
 * registry slots: the owning {@link Dispatcher} keeps the watcher's queue and bookkeeping in
 * {@link ShardFields}, allocated with the first event, progress marker or rejoin; one consumer at a
 * time drains the watcher ({@link #drain}) through its {@link WatcherConsumer}, allocated the first
 * time there is something to deliver; any thread may cancel the watcher or ask for progress. The
 * watcher keeps what the request asked for, not the request: {@link #request()} rebuilds an equal
 * one. The queue holds window sequences (>= 0) and progress markers (negative, see
 * {@link #progressMarker(long)}); it is dropped when the watcher leaves the routes or ends.
 *
 * <p>The life of a watch. It starts at one revision, its {@link #startRevision()}. The
 * dispatcher replays the window from there and routes it ({@link #routedFrom()} is where the
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
    /** The consumer thread only: its side, allocated when it first has something to deliver; null while idle. */
    private WatcherConsumer consumerSide;

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
     * @return true once the consumer has allocated its side: it had something to deliver. Any
     * thread, for tests of what an idle watcher holds; exact only from the consumer's thread.
     */
    boolean hasConsumerSide()
    {
        return consumerSide != null;
    }

    /**
     * @return the consumer's side, or null while the watcher has had nothing to deliver. Any
     * thread; a racy read, for views and metrics: its fields are each a value the consumer wrote.
     */
    WatcherConsumer consumerSide()
    {
        return consumerSide;
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
    @Override
    public long startRevision()
    {
        return startRevision;
    }

    /**
     * @return the revision up to which this watcher has been handed every event it wants, read
     * racily (a pull watcher's {@code position()}; the operator's view for both kinds).
     */
    public long position()
    {
        return LiveWatchers.position(this);
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
            shard.live.ended(this, reason);
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

    /**
     * @return true while a catch-up request waits for the consumer.
     */
    boolean isCatchUpRequested()
    {
        return (flags & CATCH_UP_REQUESTED) != 0;
    }

    /**
     * The consumer's thread: takes the catch-up request, if any.
     *
     * @return true when one was waiting.
     */
    boolean takeCatchUpRequest()
    {
        return (flags & CATCH_UP_REQUESTED) != 0 &&
            ((int)FLAGS.getAndBitwiseAnd(this, ~CATCH_UP_REQUESTED) & CATCH_UP_REQUESTED) != 0;
    }

    /**
     * @return true while the consumer owes a progress notification (see {@link #takeProgressWanted()}).
     */
    boolean owesProgress()
    {
        return (flags & PROGRESS_WANTED) != 0;
    }

    /**
     * @return true when events carry the previous key-value.
     */
    boolean prevKv()
    {
        return (flags & PREV_KV) != 0;
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
     * consumer's side the first time there is something to hand over.
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
            WatcherConsumer own = consumerSide;
            if (own == null)
            {
                if (!hasSomethingToDeliver())
                {
                    // Still idle: nothing to track, so nothing to allocate.
                    return 0;
                }
                own = new WatcherConsumer(this, startRevision);
                consumerSide = own;
            }
            return own.drain(listener, batch, maxEvents);
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
        final WatcherConsumer own = consumerSide;
        if (own != null)
        {
            return own.hasSomethingToDeliver();
        }
        // A consumer that has delivered nothing yet is SYNCED at the start revision.
        return cancellation != null || isCatchUpRequested() || !isDrained();
    }

    /**
     * @param entry a queue entry of an event.
     * @return the event's window sequence.
     */
    static long sequenceOf(final long entry)
    {
        return entry & SEQUENCE_MASK;
    }

    /**
     * @param entry a queue entry of an event.
     * @return how a watcher by index sees the event ({@link IndexMatch}).
     */
    static int indexMatchOf(final long entry)
    {
        return (int)(entry >>> MATCH_SHIFT);
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

    /**
     * @return a revision up to which the consumer has taken every event the watcher matches, as the
     * dispatcher saw when it last took the watcher off the routes with its queue drained
     * ({@link ShardFields#drainedThrough}); 0 when unknown. Any thread.
     */
    long drainedThrough()
    {
        final ShardFields fields = shardFields;
        return fields == null ? 0 : fields.drainedThrough;
    }

    /**
     * @return the last rejoin the dispatcher has routed the watcher for, 0 before any.
     */
    int joinedTicket()
    {
        final ShardFields fields = shardFields;
        return fields == null ? 0 : fields.joinedTicket;
    }

    /**
     * @return true when no routed event or marker is queued.
     */
    boolean isDrained()
    {
        final PendingQueue queue = pending();
        return queue == null || queue.isEmpty();
    }

    /**
     * Events flow while the watch runs and, after the engine closed, until the queue is empty:
     * a close is graceful, every other ending stops delivery at once.
     */
    boolean eventsStillFlow()
    {
        final WatchCancellation ending = cancellation;
        return ending == null || ending.reason() == CancelReason.ENGINE_CLOSED;
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
