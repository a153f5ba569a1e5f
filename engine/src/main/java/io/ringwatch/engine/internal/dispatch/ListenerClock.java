package io.ringwatch.engine.internal.dispatch;

import io.ringwatch.engine.watch.EventBatch;
import io.ringwatch.engine.watch.WatchCancellation;
import io.ringwatch.engine.watch.WatchListener;

/**
 * Times one delivery thread's calls into listeners: the listener a turn hands its events to goes
 * through {@link #around}, which notes when each call begins and that it ended. So the pool's
 * housekeeping counts a thread as blocked only for the time it spends inside user code, not for
 * the engine's own bounded work between calls (a catch-up turn reading thousands of changes from
 * the history): adding threads frees a thread stuck in a listener, while a thread busy reading
 * makes progress, and on a loaded machine more threads would only slow it further.
 *
 * <p>Threads: {@link #around} and the calls on the owning delivery thread; {@link #inCall()} and
 * {@link #callStartNanos()} from any thread (the housekeeper). Allocation: none; one per thread,
 * pointed at the turn's listener each turn. A call costs a clock read and two volatile stores.
 */
final class ListenerClock implements WatchListener
{
    private WatchListener listener;
    private volatile long callStartNanos;
    private volatile boolean inCall;

    /**
     * Points this clock at {@code listener} for the calling thread's current turn. Owning thread.
     *
     * @param listener the listener the turn calls.
     * @return this, to be called in the listener's place.
     */
    WatchListener around(final WatchListener listener)
    {
        this.listener = listener;
        return this;
    }

    /**
     * @return whether the owning thread is inside a listener call now. Any thread.
     */
    boolean inCall()
    {
        return inCall;
    }

    /**
     * @return when the current (or last) listener call began, by {@link System#nanoTime()}; read it
     * after {@link #inCall()}: a racing read may see a later call's start, never an earlier one's.
     * Any thread.
     */
    long callStartNanos()
    {
        return callStartNanos;
    }

    @Override
    public void onEvents(final EventBatch events)
    {
        enter();
        try
        {
            listener.onEvents(events);
        }
        finally
        {
            inCall = false;
        }
    }

    @Override
    public void onProgress(final long revision)
    {
        enter();
        try
        {
            listener.onProgress(revision);
        }
        finally
        {
            inCall = false;
        }
    }

    @Override
    public void onCancelled(final WatchCancellation cancellation)
    {
        enter();
        try
        {
            listener.onCancelled(cancellation);
        }
        finally
        {
            inCall = false;
        }
    }

    private void enter()
    {
        // The start is stored first: whoever sees inCall set sees this call's start or a later one.
        callStartNanos = System.nanoTime();
        inCall = true;
    }
}
