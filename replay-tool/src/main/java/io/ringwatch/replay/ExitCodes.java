package io.ringwatch.replay;

/**
 * The exit codes of {@code ringwatch-replay}, one per kind of failure so that scripts can tell
 * them apart. Constants only.
 */
public final class ExitCodes
{
    /** The command did what was asked; {@code verify} found the log sound. */
    public static final int OK = 0;

    /** The log is corrupt: {@code verify} found a problem, or another command met one while reading. */
    public static final int CORRUPT = 1;

    /** Bad command line: unknown or malformed option, conflicting options, unusable target. */
    public static final int USAGE = 2;

    /** The directory is missing or holds no RingWatch log (or one of a newer format). */
    public static final int NO_LOG = 3;

    /** A revision asked for is out of the log's reach. */
    public static final int BAD_REVISION = 4;

    /** The engine re-publishing history refused a revision. */
    public static final int REPUBLISH_FAILED = 5;

    /** Any other failure, for example an I/O error: still one line on stderr, never a stack trace. */
    public static final int FAILED = 6;

    private ExitCodes()
    {
    }
}
