package io.ringwatch.engine.watch;

/**
 * The events handed to a {@link WatchListener} in one call, in revision order. Reused: valid
 * only inside the call; its events are flyweights (see {@link WatchEvent}). Reading it allocates
 * nothing.
 */
public interface EventBatch
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
}
