package io.ringwatch.replay;

/**
 * An option value is malformed, options conflict, or the target of a re-publish is unusable. Nothing was read or written.
 * Exit code {@link ExitCodes#USAGE}. Thrown on the command's thread; allocates only when thrown.
 */
public final class UsageException extends ReplayException
{
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what went wrong, in one line.
     */
    public UsageException(final String message)
    {
        super(message, null);
    }

    /**
     * Creates the exception with its cause.
     *
     * @param message what went wrong, in one line.
     * @param cause   the underlying failure.
     */
    public UsageException(final String message, final Throwable cause)
    {
        super(message, cause);
    }

    /**
     * The exit code for this error. Any thread; no allocation.
     *
     * @return {@link ExitCodes#USAGE}.
     */
    @Override
    public int exitCode()
    {
        return ExitCodes.USAGE;
    }
}
