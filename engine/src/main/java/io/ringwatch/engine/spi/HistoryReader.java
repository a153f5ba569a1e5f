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
     * Appends the next changes to {@code into} until it is full or the history ends, as
     * {@link #next} would return them, but only what recovery's replay needs (no previous value):
     * a reader that holds encoded changes overrides it to copy just those bytes. The default reads
     * each change with {@link #next}. Same thread rules as {@link #next}; no allocation per change
     * in steady state.
     *
     * @param into the batch to append to; not cleared first.
     * @return true if {@code into} is full (more may follow), false if the end came first.
     */
    default boolean fill(final ReplayBatch into)
    {
        final EventRecord change = into.scratch();
        while (!into.isFull())
        {
            if (!next(change))
            {
                return false;
            }
            into.add(change);
        }
        return true;
    }

    /**
     * @return the revision of the last change {@link #next} or {@link #fill} returned, 0 before any; after an end
     * inside a revision, the revision before it; or the last revision of a skip (revisions the journal
     * says will never exist, {@link Journal#skipTo}) read past after it. At an end, every change up to
     * it has been returned.
     */
    long lastRevision();

    /** Releases what the reader holds. Idempotent. */
    @Override
    void close();
}
