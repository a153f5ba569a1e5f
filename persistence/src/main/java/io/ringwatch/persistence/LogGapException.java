package io.ringwatch.persistence;

/**
 * Revisions are missing from the middle of the log: a cycle file is gone while an older one is
 * still there, so retention did not delete it (retention deletes oldest first) and the history
 * between the two is lost, not compacted. Never retry: restore the file from a backup, or move
 * the log aside and start a new one. Thrown where the gap is met (a reader walking across it, or
 * the open of a writable log); allocates only when thrown.
 */
public class LogGapException extends LogCorruptedException
{
    private static final long serialVersionUID = 1L;

    private final long missingFrom;
    private final long missingTo;

    /**
     * Creates the exception.
     *
     * @param missingFrom the first revision missing.
     * @param missingTo   the last revision missing (the log goes on at the one after it).
     * @param where       what met the gap, for the message (e.g. "the log in /data").
     */
    public LogGapException(final long missingFrom, final long missingTo, final String where)
    {
        super("revision " + missingFrom + " is missing: revisions " + missingFrom + ".." + missingTo + " are gone from the " +
            "middle of " + where + " (their cycle file was deleted or lost while older files are still there: " +
            "restore it from a backup, or move the log aside)");
        this.missingFrom = missingFrom;
        this.missingTo = missingTo;
    }

    /**
     * The first revision missing. Any thread; no allocation.
     *
     * @return the revision.
     */
    public long missingFrom()
    {
        return missingFrom;
    }

    /**
     * The last revision missing: the log goes on at the one after it. Any thread; no allocation.
     *
     * @return the revision.
     */
    public long missingTo()
    {
        return missingTo;
    }
}
