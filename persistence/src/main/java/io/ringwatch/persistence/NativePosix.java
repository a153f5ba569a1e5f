package io.ringwatch.persistence;

import java.util.Locale;

import net.openhft.posix.PosixAPI;

/**
 * Chronicle's POSIX binding, which the queue already loads, where it reaches the kernel: on Linux
 * with the native binding. Chronicle falls back to a no-op binding that answers 0 to everything; it
 * would report blocks reserved and pages faulted in that never were, so it counts as none.
 * <p>
 * Package-private; any thread; allocation only on the first call.
 */
final class NativePosix
{
    private static final PosixAPI LINUX = load();

    private NativePosix()
    {
    }

    /**
     * @return the native binding on Linux, or null (another OS, or only the no-op binding).
     */
    static PosixAPI linux()
    {
        return LINUX;
    }

    private static PosixAPI load()
    {
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux"))
        {
            return null;
        }
        try
        {
            final PosixAPI posix = PosixAPI.posix();
            return posix.getClass().getName().contains(".noop.") ? null : posix;
        }
        catch (final RuntimeException | LinkageError ex)
        {
            return null;
        }
    }
}
