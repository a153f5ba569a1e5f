package io.ringwatch.replay;

/**
 * A revision asked for is not positive, lies beyond the log's last revision or before its first one, or the state at it cannot be rebuilt (no snapshot covers what retention removed).
 * Exit code {@link ExitCodes#BAD_REVISION}. Thrown on the command's thread; allocates only when thrown.
 */
public final class RevisionOutOfRangeException extends ReplayException
{
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what went wrong, in one line.
     */
    public RevisionOutOfRangeException(final String message)
    {
        super(message, null);
    }

    /**
     * Creates the exception with its cause.
     *
     * @param message what went wrong, in one line.
     * @param cause   the underlying failure.
     */
    public RevisionOutOfRangeException(final String message, final Throwable cause)
    {
        super(message, cause);
    }

    /**
     * The exit code for this error. Any thread; no allocation.
     *
     * @return {@link ExitCodes#BAD_REVISION}.
     */
    @Override
    public int exitCode()
    {
        return ExitCodes.BAD_REVISION;
    }
}
