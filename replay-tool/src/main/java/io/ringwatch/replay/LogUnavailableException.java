package io.ringwatch.replay;

/**
 * The directory given is missing, is not a directory, is not a RingWatch data directory, or was written by a newer format version. Nothing was read.
 * Exit code {@link ExitCodes#NO_LOG}. Thrown on the command's thread; allocates only when thrown.
 */
public final class LogUnavailableException extends ReplayException
{
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what went wrong, in one line.
     */
    public LogUnavailableException(final String message)
    {
        super(message, null);
    }

    /**
     * Creates the exception with its cause.
     *
     * @param message what went wrong, in one line.
     * @param cause   the underlying failure.
     */
    public LogUnavailableException(final String message, final Throwable cause)
    {
        super(message, cause);
    }

    /**
     * The exit code for this error. Any thread; no allocation.
     *
     * @return {@link ExitCodes#NO_LOG}.
     */
    @Override
    public int exitCode()
    {
        return ExitCodes.NO_LOG;
    }
}
