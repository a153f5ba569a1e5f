package io.ringwatch.engine.watch;

/**
 * Why a watch ended. Every reason but {@link #CANCELLED_BY_CLIENT} and {@link #ENGINE_CLOSED}
 * means the watcher may have missed history and should relist (client-go's relist after a
 * watch error) from {@link WatchCancellation#compactRevision()} or later.
 */
public enum CancelReason
{
    /** The watcher's owner called {@link Watcher#cancel()}. */
    CANCELLED_BY_CLIENT,
    /** The start revision, or where a watcher reading the history by cursor has got to, is before the compaction point (etcd's compact_revision response). */
    COMPACTED,
    /** The start revision is older than the oldest event still held in memory. */
    REVISION_UNAVAILABLE,
    /**
     * Revisions the watcher needed are missing from the middle of the revision log (a cycle file
     * deleted or lost while older ones are still there): data loss, not compaction. The cause is an
     * {@link io.ringwatch.engine.spi.HistoryGapException} naming the missing range, and
     * {@link WatchCancellation#compactRevision()} is the first revision after it. Relisting works,
     * but the history in the gap cannot be watched again; an operator should restore the file.
     */
    HISTORY_LOST,
    /** The writer overwrote events the watcher had not consumed yet. */
    LAPPED,
    /**
     * A watch by secondary index had more pending events than its queue holds. Other watchers never
     * end this way: beyond their queue they read by their own cursor.
     */
    OVERFLOWED,
    /** A push listener stayed inside one callback longer than the configured limit. */
    SLOW_LISTENER,
    /** A push listener threw; the exception is the cancellation's cause. */
    LISTENER_FAILED,
    /** The index function of a watch by index threw on an event; the exception is the cause. */
    INDEX_FUNCTION_FAILED,
    /** The engine closed. */
    ENGINE_CLOSED
}
