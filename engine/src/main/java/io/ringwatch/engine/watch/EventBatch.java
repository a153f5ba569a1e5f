package io.ringwatch.engine.watch;

import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * The events handed to a {@link WatchListener} in one call, in revision order. Reused: valid
 * only inside the call; its events are flyweights (see {@link WatchEvent}). Reading it allocates
 * nothing: {@code for (WatchEvent e : batch)} included, since the engine's batches hand out one
 * reused iterator.
 */
public interface EventBatch extends Iterable<WatchEvent>
{
    /**
     * @return how many events the batch holds (at least one).
     */
    int size();

    /**
     * @param index position in the batch, from 0.
     * @return the event at {@code index}.
     */
    WatchEvent get(int index);

    /**
     * Iterates the batch in order. The engine's batches return the same iterator every call,
     * rewound, so a for-each loop allocates nothing in steady state: one iteration at a time, on
     * the listener's thread, inside the call (a second {@code iterator()} call restarts the first).
     * This default, for other implementations, allocates one iterator per call.
     *
     * @return an iterator over the batch's events, valid only inside the listener call.
     */
    @Override
    default Iterator<WatchEvent> iterator()
    {
        return new Iterator<>()
        {
            private int next;

            @Override
            public boolean hasNext()
            {
                return next < size();
            }

            @Override
            public WatchEvent next()
            {
                if (next >= size())
                {
                    throw new NoSuchElementException("batch of " + size() + " events");
                }
                return get(next++);
            }
        };
    }
}
