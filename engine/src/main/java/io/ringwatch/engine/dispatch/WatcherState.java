package io.ringwatch.engine.dispatch;

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
        final long cancelWaitNanos)
    {
        this.id = id;
        this.request = request;
        this.startRevision = startRevision;
        this.dispatcher = dispatcher;
        this.window = window;
        this.pending = pending;
        this.cancelWaitNanos = cancelWaitNanos;
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
        final WatchCancellation ending = new WatchCancellation(reason, compactRevision, cause, message);
        if (CANCELLATION.compareAndSet(this, null, ending))
        {
            dispatcher.requestRemoval(this);
            return true;
        }
        return false;
    }

    /**
     * @param record an event read from the window.
     * @return true when this watcher wants it: its key is in range, its revision is not before
     * the start revision, and no filter drops it.
     */
    boolean wants(final EventRecord record)
    {
        return record.revision() >= startRevision && passesFilters(record.type()) && inRange(record);
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
        return !pending.isEmpty() || (cancellation != null && !cancellationDelivered);
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
        while (delivered + batch.size() < maxEvents && eventsStillFlow())
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
            if (window.read(entry & SEQUENCE_MASK, batch.nextSlot().record) != WatchWindow.READ_OK)
            {
                terminate(CancelReason.LAPPED, window.oldestRevision(), null,
                    "the watch window overwrote events this watcher had not consumed");
                break;
            }
            pending.poll();
            batch.commit(request.prevKv(), (int)(entry >>> MATCH_SHIFT));
        }
        delivered += flush(listener, batch);
        if (!eventsStillFlow())
        {
            // Nothing more is delivered: drop what is queued so the watcher reads as drained.
            pending.drain(DISCARD, Integer.MAX_VALUE);
        }
        final WatchCancellation ending = cancellation;
        if (ending != null && !cancellationDelivered && (!eventsStillFlow() || pending.isEmpty()))
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
