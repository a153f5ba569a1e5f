package io.ringwatch.persistence;

/**
 * The data directory is owned by another open {@link RevisionLog}, in this process or another one.
 * The message says who holds it (process id, host, since when) as that holder recorded it. The open
 * changed nothing.
 */
public class LogLockedException extends LogDirectoryException
{
    private static final long serialVersionUID = 1L;

    private final String holder;

    /**
     * Creates the exception.
     *
     * @param message what went wrong, with the directory concerned.
     * @param holder  the holder's own description, for example {@code "pid 4711 on host a since
     *                2026-01-01T00:00:00Z"}, or "unknown" when it could not be read.
     */
    public LogLockedException(final String message, final String holder)
    {
        super(message);
        this.holder = holder;
    }

    /**
     * Who holds the directory, as the holder recorded it. Any thread; no allocation.
     *
     * @return the holder's description, "unknown" when it could not be read.
     */
    public String holder()
    {
        return holder;
    }
}
