package io.ringwatch.replay;

/**
 * Base of every error the replay tool reports to its user: one readable line (the message) and
 * the process exit code that goes with it ({@link ExitCodes}). Thrown on the command's thread;
 * allocates only when thrown.
 */
public abstract class ReplayException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what went wrong, naming the directory, option or revision concerned.
     * @param cause   the underlying failure, or null.
     */
    protected ReplayException(final String message, final Throwable cause)
    {
        super(message, cause);
    }

    /**
     * The exit code the command ends with. Any thread; no allocation.
     *
     * @return one of {@link ExitCodes}, never 0.
     */
    public abstract int exitCode();
}
