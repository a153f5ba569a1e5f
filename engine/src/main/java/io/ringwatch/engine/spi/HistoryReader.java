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
     * @return false at the end of what has been written so far. The end falls between revisions,
     * except where a reader that switches tiers waits inside a revision for the tier that has to
     * serve the rest of it (then {@link #lastRevision()} names the revision before); a later call
     * goes on from the same change.
     */
    boolean next(EventRecord into);

    /**
     * @return the revision of the last change {@link #next} returned, 0 before any; after an end
     * inside a revision, the revision before it. At an end, every change up to it has been returned.
     */
    long lastRevision();

    /** Releases what the reader holds. Idempotent. */
    @Override
    void close();
}
