package io.ringwatch.engine.spi;

/**
 * The engine's past beyond the watch window: every revision from {@link #firstRevision()} on,
 * as kept by the revision log. A watcher that starts before the window, or that the window
 * lapped, catches up here and then rejoins the window (etcd's unsynced watchers).
 *
 * <p>Threads: any thread may call these methods; each reader is used by one thread at a time.
 */
public interface History
{
    /**
     * The oldest revision a reader can still seek to. Any thread; no allocation.
     *
     * @return that revision, or 1 when the whole history is kept.
     */
    long firstRevision();

    /**
     * The revision a watcher cancelled for want of history is told to resume from
     * ({@code WatchCancellation.compactRevision()}): at or after {@link #firstRevision()}, and far
     * enough after it that a watch started from it promptly still finds it although writes go on.
     * Any thread; no allocation.
     *
     * @return that revision; {@link #firstRevision()} unless the history is about to lose it.
     */
    default long resumeRevision()
    {
        return firstRevision();
    }

    /**
     * Opens a reader for one consumer. Any thread; allocates the reader and whatever it maps.
     *
     * @return a new reader, positioned nowhere until {@link HistoryReader#seek}.
     */
    HistoryReader newReader();
}
