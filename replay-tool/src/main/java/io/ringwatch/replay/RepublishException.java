package io.ringwatch.replay;

/**
 * The engine re-publishing history refused a revision or could not be opened; what was re-published before it stays in the target log.
 * Exit code {@link ExitCodes#REPUBLISH_FAILED}. Thrown on the command's thread; allocates only when thrown.
 */
public final class RepublishException extends ReplayException
{
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what went wrong, in one line.
     */
    public RepublishException(final String message)
    {
        super(message, null);
    }

    /**
     * Creates the exception with its cause.
     *
     * @param message what went wrong, in one line.
     * @param cause   the underlying failure.
     */
    public RepublishException(final String message, final Throwable cause)
    {
        super(message, cause);
    }

    /**
     * The exit code for this error. Any thread; no allocation.
     *
     * @return {@link ExitCodes#REPUBLISH_FAILED}.
     */
    @Override
    public int exitCode()
    {
        return ExitCodes.REPUBLISH_FAILED;
    }
}
