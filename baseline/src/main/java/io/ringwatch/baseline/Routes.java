package io.ringwatch.baseline;

/**
 * The watchers of a {@link LockedWatchStore} and how a put finds those it must reach. Called only
 * under the store's lock.
 */
interface Routes
{
    /**
     * Adds a watcher.
     *
     * @param watched the key, or the prefix when {@code prefix}; the store's copy, kept.
     * @param prefix  whether {@code watched} is a prefix rather than a whole key.
     * @param watcher the watcher's queue.
     */
    void add(byte[] watched, boolean prefix, LockedWatcher watcher);

    /**
     * Offers an event to every watcher of its key and removes each that refuses it.
     *
     * @param event the put's event.
     * @throws InterruptedException if a watcher was interrupted while waiting for room.
     */
    void offer(ChangeEvent event) throws InterruptedException;
}
