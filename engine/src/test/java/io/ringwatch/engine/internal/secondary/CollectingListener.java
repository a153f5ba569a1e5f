package io.ringwatch.engine.internal.secondary;

import io.ringwatch.engine.watch.Event;
import io.ringwatch.engine.watch.EventBatch;
import io.ringwatch.engine.watch.WatchCancellation;
import io.ringwatch.engine.watch.WatchListener;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * Keeps copies of the events and the cancellation a push watcher is handed; waits are bounded
 * only as a safety net against hangs.
 */
final class CollectingListener implements WatchListener
{
    private static final long PATIENCE_MILLIS = 20_000;

    private final List<Event> events = new ArrayList<>();
    private WatchCancellation cancellation;

    @Override
    public synchronized void onEvents(final EventBatch batch)
    {
        for (int i = 0; i < batch.size(); i++)
        {
            events.add(batch.get(i).toEvent());
        }
        notifyAll();
    }

    @Override
    public synchronized void onCancelled(final WatchCancellation cancellation)
    {
        this.cancellation = cancellation;
        notifyAll();
    }

    synchronized List<Event> awaitEvents(final int count)
    {
        await(() -> events.size() >= count || cancellation != null);
        return new ArrayList<>(events);
    }

    synchronized WatchCancellation awaitCancellation()
    {
        await(() -> cancellation != null);
        return cancellation;
    }

    private void await(final BooleanSupplier done)
    {
        final long deadline = System.currentTimeMillis() + PATIENCE_MILLIS;
        while (!done.getAsBoolean())
        {
            final long left = deadline - System.currentTimeMillis();
            if (left <= 0)
            {
                return;
            }
            try
            {
                wait(left);
            }
            catch (final InterruptedException e)
            {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
