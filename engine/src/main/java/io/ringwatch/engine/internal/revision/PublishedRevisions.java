package io.ringwatch.engine.internal.revision;

/**
 * The writer's progress as a reader sees it: the revisions it has applied and holds durably, an
 * upper bound of what it may have changed, and a stamp that tells a reader whether a roll-back
 * overlapped its read. The writer's side ({@code internal.write.RevisionCursor}) implements it; the
 * read side (range reads, reads by secondary index) and the snapshotter (which commits a fuzzy
 * snapshot only once the log is durable up to {@link #awaitBound()}) depend only on this interface,
 * so the write path may depend on the read side without a cycle.
 *
 * <p>Any thread may call every method; none allocates.
 */
public interface PublishedRevisions
{
    /**
     * @return the newest revision whose changes are in the index and visible in the window.
     */
    long applied();

    /**
     * Waits until the writer has ended the flush group it had announced when called (microseconds)
     * and returns the last revision it had ended by then: an upper bound of every index change the
     * caller saw before the call, and of every revision the writer applied without seeing a read pin
     * the caller published before the call. A roll-back during the wait ends it early.
     *
     * @return the bound; after a roll-back, a revision that may not hold.
     */
    long awaitBound();

    /**
     * @return the newest revision the journal holds as its mode promises.
     */
    long durable();

    /**
     * @return a stamp to note before a read of the index; waits while a roll-back runs.
     */
    long readStamp();

    /**
     * @param stamp what {@link #readStamp()} returned before the read.
     * @return true when no roll-back ran since, so what the read saw stands.
     */
    boolean isStable(long stamp);

    /**
     * Waits until every revision of the flush group the writer had announced when called is visible
     * (spins, yields, then parks briefly); a roll-back during the wait ends it early.
     *
     * @return the {@link #awaitBound()} bound, now visible, or after a roll-back the revision rolled
     * back to.
     * @throws io.ringwatch.engine.errors.RingWatchException on the thread that would have to
     *                                                       open the gate itself.
     */
    long awaitApplying();
}
