package io.ringwatch.engine.internal.dispatch;

import io.ringwatch.engine.secondary.IndexFunction;
import io.ringwatch.engine.watch.CancelReason;
import io.ringwatch.engine.watch.WatchListener;
import io.ringwatch.engine.watch.WatchRequest;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A push watcher: its listener is called in turns by a {@link DeliveryPool}, one batch a turn.
 * Its turn state keeps it at most once in the pool's ready queue and on at most one thread
 * however many events arrive, so waking it costs one CAS per dispatcher batch, not one per event.
 */
final class PushWatcherState extends WatcherState implements DeliveryTask
{
    private static final Logger LOG = LoggerFactory.getLogger(PushWatcherState.class);
    private static final VarHandle TURN_STATE;

    static
    {
        try
        {
            TURN_STATE = MethodHandles.lookup().findVarHandle(PushWatcherState.class, "turnState", int.class);
        }
        catch (final ReflectiveOperationException e)
        {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final WatchListener listener;
    private volatile int turnState;

    PushWatcherState(
        final long id,
        final WatchRequest request,
        final long startRevision,
        final ShardContext shard,
        final IndexFunction indexFunction,
        final WatchListener listener)
    {
        super(id, request, startRevision, shard, indexFunction);
        this.listener = listener;
    }

    @Override
    boolean signal()
    {
        return shard.pool.schedule(this);
    }

    @Override
    public int turnState()
    {
        return turnState;
    }

    @Override
    public boolean compareAndSetTurnState(final int expected, final int updated)
    {
        return TURN_STATE.compareAndSet(this, expected, updated);
    }

    @Override
    public void runTurn(final EventBatchView batch, final int maxEvents)
    {
        drain(listener, batch, maxEvents);
    }

    @Override
    public boolean hasWork()
    {
        return hasSomethingToDeliver();
    }

    /**
     * "watch ID (N queued undelivered)": N counts the events and progress notifications its queue
     * still holds (none while it reads by cursor).
     */
    @Override
    public void describe(final StringBuilder into)
    {
        final PendingQueue queue = pending();
        into.append("watch ").append(id()).append(" (").append(queue == null ? 0 : queue.size()).append(" queued undelivered)");
    }

    /**
     * Cancels the watcher with {@link CancelReason#SLOW_LISTENER}; its thread, still inside the
     * listener, delivers the cancellation when the listener returns. Frees no thread: the pool
     * has already compensated for this one.
     */
    @Override
    public void overstayed(final long timeoutNanos)
    {
        if (terminate(CancelReason.SLOW_LISTENER, 0, null,
            "the listener stayed in one call longer than " + timeoutNanos / 1_000_000 + " ms"))
        {
            LOG.warn("{}: watch {} cancelled (SLOW_LISTENER): its listener stayed in one call longer than {} ms",
                shard.pool.name(), id(), timeoutNanos / 1_000_000);
        }
    }
}
