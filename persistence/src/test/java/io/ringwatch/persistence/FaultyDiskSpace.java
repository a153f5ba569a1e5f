package io.ringwatch.persistence;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * A disk with {@code budget} bytes for the log's claims: it reports what is left as usable space and
 * fails a claim past it with the IOException a full file system gives. Claims within the budget
 * really write zeros, so the code under test runs exactly as on a real disk.
 */
final class FaultyDiskSpace implements DiskSpace
{
    private volatile long budget;
    private final boolean lies;
    private long claimed;

    FaultyDiskSpace(final long budget)
    {
        this(budget, false);
    }

    /**
     * @param lies whether {@link #usableBytes} reports plenty whatever is left, as a file system
     *             shared with other writers may have by the time a claim is written.
     */
    FaultyDiskSpace(final long budget, final boolean lies)
    {
        this.budget = budget;
        this.lies = lies;
    }

    /** Frees room, as deleting someone else's files would. */
    void budget(final long budget)
    {
        this.budget = budget;
    }

    @Override
    public long usableBytes(final Path directory)
    {
        return lies ? Long.MAX_VALUE / 4 : Math.max(0, budget - claimed);
    }

    @Override
    public void allocate(final Path file, final FileChannel channel, final long position, final long length)
            throws IOException
    {
        if (claimed + length > budget)
        {
            throw new IOException("No space left on device (injected: " + claimed + " of " + budget + " bytes claimed)");
        }
        DiskSpace.SYSTEM.allocate(file, channel, position, length);
        claimed += length;
    }
}
