package io.ringwatch.jmh.engine;

/**
 * How far a watcher has got through the engine's revisions, so that a producer can hold itself to
 * the watcher's pace ({@link AckWindow#AckWindow(WatchProgress)}). Read by producer threads;
 * implementations allocate nothing.
 */
@FunctionalInterface
interface WatchProgress
{
    /**
     * @return the revision up to which the watcher has received every event; {@link Long#MAX_VALUE}
     * once it holds no producer back (it ended, or there is no watcher to wait for).
     */
    long receivedThrough();
}
