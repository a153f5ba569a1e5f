package io.ringwatch.persistence;

/**
 * A reader needs a revision that the log no longer holds: retention deleted the cycle file holding
 * it while the reader was reading an older one. The revisions the reader returned before are
 * complete; the caller must start again at or after the log's first revision (for a watcher: it
 * was behind the compaction point). Thrown on the reader's thread; allocates only when thrown.
 */
public class LogCompactedException extends RevisionLogException
{
    private static final long serialVersionUID = 1L;

    private final long revision;

    /**
     * Creates the exception.
     *
     * @param message  what went wrong.
     * @param revision the first revision the reader needed and the log no longer holds.
     */
    public LogCompactedException(final String message, final long revision)
    {
        super(message);
        this.revision = revision;
    }

    /**
     * The first revision the reader needed and could not read. Any thread; no allocation.
     *
     * @return the revision.
     */
    public long revision()
    {
        return revision;
    }
}
