package io.ringwatch.persistence;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The calling thread's minor page faults, from Linux's {@code /proc/thread-self/stat}, for tests
 * that check which thread faults the log's pages in.
 */
final class ThreadPageFaults
{
    private static final Path STAT = Path.of("/proc/thread-self/stat");
    /** The field after the command name's closing parenthesis where {@code minflt} is (stat's 10th). */
    private static final int MINFLT_AFTER_COMM = 7;

    private ThreadPageFaults()
    {
    }

    /**
     * @return true on Linux 5.14 or later (MADV_POPULATE_WRITE) with {@code /proc/thread-self}.
     */
    static boolean available()
    {
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux") || !Files.isReadable(STAT))
        {
            return false;
        }
        final String[] version = System.getProperty("os.version", "0.0").split("[.-]");
        final int major = Integer.parseInt(version[0]);
        final int minor = version.length > 1 ? Integer.parseInt(version[1]) : 0;
        return major > 5 || major == 5 && minor >= 14;
    }

    /**
     * @return the calling thread's minor page faults so far.
     */
    static long minor()
    {
        try
        {
            final String stat = Files.readString(STAT);
            return Long.parseLong(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[MINFLT_AFTER_COMM]);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
