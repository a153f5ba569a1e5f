package io.ringwatch.jmh.fanout;

import io.ringwatch.engine.watch.EventBatch;
import io.ringwatch.engine.watch.WatchCancellation;
import io.ringwatch.engine.watch.WatchListener;

/**
 * A push listener that counts what it is handed, alone and into a shared {@link DeliveryTally}, so the
 * benchmarks measure the watch path and not listener work. The engine calls it on one delivery thread at
 * a time; the getters may be read from any thread. Counting allocates nothing.
 */
final class TallyListener implements WatchListener
{
    private final DeliveryTally tally;
    private volatile long delivered;
    private volatile WatchCancellation cancellation;

    /**
     * @param tally where every delivery is also added.
     */
    TallyListener(final DeliveryTally tally)
    {
        this.tally = tally;
    }

    /**
     * Counts the batch. Delivery thread; allocates nothing.
     *
     * @param events the events delivered.
     */
    @Override
    public void onEvents(final EventBatch events)
    {
        final int size = events.size();
        // Calls to one listener never overlap, so a plain read-modify-write of the volatile is exact.
        delivered = delivered + size;
        tally.add(size);
    }

    /**
     * Remembers why the watch ended. Delivery thread.
     *
     * @param cancellation why the watch ended.
     */
    @Override
    public void onCancelled(final WatchCancellation cancellation)
    {
        this.cancellation = cancellation;
    }

    /**
     * @return the events delivered to this listener so far. Any thread.
     */
    long delivered()
    {
        return delivered;
    }

    /**
     * @return why the watch ended, or null while it runs. Any thread.
     */
    WatchCancellation cancellation()
    {
        return cancellation;
    }
}
