package io.ringwatch.engine.spi;

import io.ringwatch.ringbuffer.EventRecord;

/**
 * Reads {@link History} forward one change at a time, in revision order and, within a revision,
 * in the order the writer applied its changes (the order of the window's events).
 *
 * <p>Threads: one thread at a time, which may change between calls (a watcher's consumer can
 * move to another delivery thread); the caller publishes its own hand-over. Allocation: none
 * per change in steady state.
 */
public interface HistoryReader extends AutoCloseable
{
    /**
     * Positions the reader so that {@link #next} returns the first change of {@code revision}
     * (or of the first revision after it, if nothing was written at it).
     *
     * @param revision the revision to start at, positive.
     * @return false if the history no longer holds that revision.
     */
    boolean seek(long revision);

    /**
     * Copies the next change into {@code into}.
     *
     * @param into the record to fill.
     * @return false at the end of what has been written so far; the end always falls between
     * revisions, never inside one.
     */
    boolean next(EventRecord into);

    /**
     * @return the revision of the last change {@link #next} returned, 0 before any.
     */
    long lastRevision();

    /** Releases what the reader holds. Idempotent. */
    @Override
    void close();
}
