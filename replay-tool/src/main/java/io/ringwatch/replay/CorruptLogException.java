package io.ringwatch.replay;

/**
 * Stored bytes failed a check while the tool read them: a bad CRC, a broken layout or revisions that are not contiguous. The message names the first problem found.
 * Exit code {@link ExitCodes#CORRUPT}. Thrown on the command's thread; allocates only when thrown.
 */
public final class CorruptLogException extends ReplayException
{
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what went wrong, in one line.
     */
    public CorruptLogException(final String message)
    {
        super(message, null);
    }

    /**
     * Creates the exception with its cause.
     *
     * @param message what went wrong, in one line.
     * @param cause   the underlying failure.
     */
    public CorruptLogException(final String message, final Throwable cause)
    {
        super(message, cause);
    }

    /**
     * The exit code for this error. Any thread; no allocation.
     *
     * @return {@link ExitCodes#CORRUPT}.
     */
    @Override
    public int exitCode()
    {
        return ExitCodes.CORRUPT;
    }
}
