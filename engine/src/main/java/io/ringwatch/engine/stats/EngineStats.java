package io.ringwatch.engine.stats;

import io.ringwatch.engine.watch.CancelReason;

/**
 * Live figures of one engine for an operator ({@code RingWatch.stats()}): what the metrics
 * binder ({@code io.ringwatch.engine.metrics.RingWatchMetrics}) turns into meters, readable
 * without any metrics library.
 *
 * <p>Threads: any. Every method reads fields that engine threads keep anyway, or counters they
 * write as they work (plain or opaque stores by one thread, {@code LongAdder}s off the hot path),
 * racily: a value the engine really had at about the time of the call. Nothing here takes a
 * lock the engine's threads take. Allocation: none, except where a method says so.
 */
public interface EngineStats
{
    /** @return the engine's name, as in its thread names. */
    String engineName();

    /** @return the newest applied revision. */
    long currentRevision();

    /** @return the compaction point (0: never compacted). */
    long compactRevision();

    /** @return the keys currently stored. */
    long keys();

    /** @return the oldest revision the watch window still holds (the current revision + 1 when it holds none). */
    long windowOldestRevision();

    /** @return events the watch window holds now. */
    long windowSize();

    /** @return the watch window's capacity in events now (it grows and shrinks between its bounds). */
    int windowCapacity();

    /** @return times the watch window grew since the engine started. */
    long windowGrowCount();

    /** @return times the watch window shrank since the engine started. */
    long windowShrinkCount();

    /** @return live watchers (registered and not yet removed). */
    int watcherCount();

    /**
     * Counts the live watchers in one state by walking them: O(watchers), no allocation.
     *
     * @param state the state to count.
     * @return how many watchers are in it now.
     */
    int watchersIn(WatcherView.State state);

    /**
     * The largest {@link WatcherView#lag()} of a live watcher, found by walking them without making
     * views: O(watchers), no allocation per watcher.
     *
     * @return the lag in revisions; 0 with no watchers.
     */
    long maxWatcherLag();

    /**
     * @param reason a cancel reason.
     * @return watchers that ended for that reason since the engine started.
     */
    long cancelledWatchers(CancelReason reason);

    /** @return entries queued for watchers, over all dispatchers (an upper bound between recounts). */
    long pendingEntries();

    /** @return the most entries all watcher queues may hold together (the configured pending budget). */
    long pendingBudget();

    /**
     * @return the journal's append timings, one operation per revision appended, timed per batch
     * (a recording, and the longest, is a batch's appends; in ASYNC mode with their
     * acknowledgements); null for an in-memory engine.
     */
    TimingCounter journalAppends();

    /**
     * @return the journal's flush timings (SYNC group commits), one operation per flush; null for
     * an in-memory engine.
     */
    TimingCounter journalFlushes();

    /** @return index snapshot timings, one operation per snapshot; null for an in-memory engine. */
    TimingCounter snapshots();

    /** @return delivery threads alive now (blocked ones included). */
    int deliveryThreads();

    /** @return delivery threads started in place of threads blocked in listeners, since the engine started. */
    long deliveryThreadsReplaced();
}
