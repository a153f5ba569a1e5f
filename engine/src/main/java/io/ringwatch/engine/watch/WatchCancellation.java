package io.ringwatch.engine.watch;

/**
 * Why and where a watch ended: the reason, the oldest revision the watcher could resume from
 * (etcd's compact_revision; 0 when not applicable), the failure that caused it, if any, and a
 * message for a person. Immutable and thread-safe.
 */
public final class WatchCancellation
{
    private final CancelReason reason;
    private final long compactRevision;
    private final Throwable cause;
    private final String message;

    /**
     * @param reason          why the watch ended.
     * @param compactRevision the oldest revision still available to resume from, or 0.
     * @param cause           the failure behind it, or null.
     * @param message         a description for a person.
     */
    public WatchCancellation(final CancelReason reason, final long compactRevision, final Throwable cause, final String message)
    {
        this.reason = reason;
        this.compactRevision = compactRevision;
        this.cause = cause;
        this.message = message;
    }

    /**
     * @return why the watch ended.
     */
    public CancelReason reason()
    {
        return reason;
    }

    /**
     * @return the revision to resume or relist from: for COMPACTED the compact revision; when the
     * history no longer holds what the watcher needed, a revision a watch started promptly from
     * it still finds (in memory, a quarter of the window past the oldest event held, since the
     * oldest is the next the writer overwrites); 0 when the reason does not involve history.
     */
    public long compactRevision()
    {
        return compactRevision;
    }

    /**
     * @return the failure behind the cancellation (a listener's exception), or null.
     */
    public Throwable cause()
    {
        return cause;
    }

    /**
     * @return a description for a person.
     */
    public String message()
    {
        return message;
    }

    @Override
    public String toString()
    {
        return "WatchCancellation(" + reason + (compactRevision > 0 ? ", compactRevision=" + compactRevision : "") +
            ", " + message + (cause != null ? ", cause=" + cause : "") + ")";
    }
}
