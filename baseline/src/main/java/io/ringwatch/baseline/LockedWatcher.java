package io.ringwatch.baseline;

/**
 * What a {@link LockedWatchStore} hands each matching put to: a watcher's queue. Called by the
 * putting thread while it holds the store's lock, so events arrive in revision order; an
 * implementation decides what a full queue means (wait, drop the watcher) and allocates what its
 * queue does.
 */
@FunctionalInterface
public interface LockedWatcher
{
    /**
     * Takes one event. The putting thread, under the store's lock.
     *
     * @param event the put's event; shared with every other matching watcher.
     * @return false to be removed from the store's routes (for example, a full queue that terminates
     * the watcher, as the Kubernetes cacher does); true to stay.
     * @throws InterruptedException if interrupted while waiting for room in a queue.
     */
    boolean offer(ChangeEvent event) throws InterruptedException;
}
