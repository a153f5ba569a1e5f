package io.ringwatch.persistence;

import java.nio.file.Path;

import net.openhft.posix.OpenFlag;
import net.openhft.posix.PosixAPI;

/**
 * Reserves a file's blocks with {@code fallocate(2)} (mode 0: allocate, extend the size if past
 * the end, never change a byte already there), through Chronicle's POSIX binding, which the queue
 * already loads. Where there is no native binding (Chronicle falls back to a no-op one that reports
 * success without doing anything), the file system cannot fallocate, or it is full, {@link #allocate}
 * says so and {@link DiskSpace#SYSTEM} writes zeros instead (and a full disk fails those).
 * <p>
 * Package-private; any thread. Allocates the path's string per call (one call per claim step).
 */
final class NativeAllocation
{
    private static final PosixAPI POSIX = NativePosix.linux();

    private NativeAllocation()
    {
    }

    /**
     * Reserves {@code [position, position + length)} of {@code file}.
     *
     * @param file     an existing file.
     * @param position the first byte.
     * @param length   how many bytes, positive.
     * @return true if the blocks are reserved; false if they are not, for any reason (no native
     * binding, a file system without fallocate, no room): the caller claims another way, which
     * reports a full disk.
     */
    static boolean allocate(final Path file, final long position, final long length)
    {
        if (POSIX == null)
        {
            return false;
        }
        try
        {
            final int fd = POSIX.open(file.toString(), OpenFlag.O_RDWR, 0);
            if (fd < 0)
            {
                return false;
            }
            try
            {
                // Any failure (ENOSPC, EOPNOTSUPP, ...) falls back to the writes of zeros, which report
                // a full disk reliably: the binding's errno is not always the fallocate's.
                return POSIX.fallocate(fd, 0, position, length) == 0;
            }
            finally
            {
                POSIX.close(fd);
            }
        }
        catch (final RuntimeException ex)
        {
            return false;
        }
    }
}
