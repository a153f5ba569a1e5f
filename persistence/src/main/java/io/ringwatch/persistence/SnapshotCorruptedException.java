package io.ringwatch.persistence;

/**
 * A snapshot file failed its checks (magic, length, CRC or entry layout). The reader that threw is
 * unusable; an older snapshot, if kept, may still be loaded.
 */
public class SnapshotCorruptedException extends LogCorruptedException
{
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what went wrong, with the file or revision concerned.
     */
    public SnapshotCorruptedException(final String message)
    {
        super(message);
    }

    /**
     * Creates the exception with its cause.
     *
     * @param message what went wrong, with the file or revision concerned.
     * @param cause   the underlying failure.
     */
    public SnapshotCorruptedException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
