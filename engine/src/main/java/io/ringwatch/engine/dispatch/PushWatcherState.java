package io.ringwatch.engine.dispatch;

import io.ringwatch.engine.history.History;
import io.ringwatch.engine.watch.WatchListener;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.ringbuffer.WatchWindow;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A push watcher: its listener is called by a {@link DeliveryWorker}. A {@code scheduled} flag
 * keeps the watcher at most once in its worker's ready queue however many events arrive, so
 * waking it costs one CAS per dispatcher batch, not one per event.
 */
final class PushWatcherState extends WatcherState
{
    private static final VarHandle SCHEDULED;

    static
    {
        try
        {
            SCHEDULED = MethodHandles.lookup().findVarHandle(PushWatcherState.class, "scheduled", int.class);
        }
        catch (final ReflectiveOperationException e)
        {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final WatchListener listener;
    private final DeliveryWorker worker;
    @SuppressWarnings("unused")
    private volatile int scheduled;
    private volatile boolean abandoned;

    PushWatcherState(
        final long id,
        final WatchRequest request,
        final long startRevision,
        final Dispatcher dispatcher,
        final WatchWindow window,
        final long cancelWaitNanos,
        final History history,
        final WatchListener listener,
        final DeliveryWorker worker)
    {
        super(id, request, startRevision, dispatcher, window, cancelWaitNanos, history);
        this.listener = listener;
        this.worker = worker;
    }

    @Override
    boolean signal()
    {
        if (!SCHEDULED.compareAndSet(this, 0, 1))
        {
            return true;
        }
        if (worker.schedule(this))
        {
            return true;
        }
        scheduled = 0;
        return false;
    }

    /**
     * Called by the worker before it drains the watcher: events that arrive from now on schedule
     * it again.
     */
    void unschedule()
    {
        scheduled = 0;
    }

    /**
     * Marks the watcher as left to the thread stuck inside its listener: no other delivery
     * thread may drain it, since its queue has one consumer.
     */
    void abandon()
    {
        abandoned = true;
    }

    boolean isAbandoned()
    {
        return abandoned;
    }

    WatchListener listener()
    {
        return listener;
    }
}
