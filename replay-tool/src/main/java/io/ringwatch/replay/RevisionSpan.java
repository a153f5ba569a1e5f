package io.ringwatch.replay;

/**
 * An inclusive range of revisions, {@code [from, to]}; empty when {@code to < from} (an empty log).
 * Immutable; any thread.
 *
 * @param from the first revision.
 * @param to   the last revision.
 */
record RevisionSpan(long from, long to)
{
    /**
     * How many revisions the span holds.
     *
     * @return {@code to - from + 1}, or 0 when empty.
     */
    long count()
    {
        return Math.max(0, to - from + 1);
    }
}
