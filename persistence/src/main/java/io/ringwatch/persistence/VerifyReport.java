package io.ringwatch.persistence;

/**
 * What {@link RevisionLog#verify()} found: the revision range walked and the first problem, if any.
 * Immutable; any thread.
 *
 * @param firstRevision the oldest valid revision seen, 0 if none.
 * @param lastRevision  the newest valid revision before the first problem, 0 if none.
 * @param revisions     how many valid revisions were checked.
 * @param dropped       how many excerpts were marked dropped (torn tails voided at open).
 * @param trimmed       how many revisions the writer's retention deleted ahead of the walk (a live
 *                      log): not checked, and not a problem; 0 for a log nobody trims meanwhile.
 * @param problem       the first problem, or null when the log is sound.
 */
public record VerifyReport(long firstRevision, long lastRevision, long revisions, long dropped, long trimmed, String problem)
{
    /**
     * Whether the walk found no problem. Any thread; no allocation.
     *
     * @return true when {@link #problem()} is null.
     */
    public boolean ok()
    {
        return problem == null;
    }
}
