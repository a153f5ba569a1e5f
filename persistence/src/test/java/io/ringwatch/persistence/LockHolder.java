package io.ringwatch.persistence;

import io.ringwatch.engine.internal.durable.ChildJvm;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A second process for the lock tests. {@code hold DIR}: opens the log, prints "held", then waits
 * until its standard input closes (or it is killed). {@code try DIR}: opens the log and prints
 * "opened", or prints "locked: message" and exits 3 when another owner holds it.
 */
public final class LockHolder
{
    static final int LOCKED_EXIT = 3;

    private LockHolder()
    {
    }

    /**
     * Entry point of the child process.
     *
     * @param args mode and directory.
     * @throws IOException if standard input fails.
     */
    public static void main(final String[] args) throws IOException
    {
        final LogConfig config = LogConfig.builder(Path.of(args[1])).blockSize(1 << 20).build();
        try (RevisionLog log = RevisionLog.open(config))
        {
            System.out.println("hold".equals(args[0]) ? "held" : "opened");
            System.out.flush();
            if ("hold".equals(args[0]))
            {
                while (System.in.read() >= 0)
                {
                    // Holds the log until the parent closes our input or kills us.
                }
            }
        }
        catch (final LogLockedException ex)
        {
            System.out.println("locked: " + ex.getMessage());
            System.out.flush();
            System.exit(LOCKED_EXIT);
        }
    }

    /** Starts a child JVM running this class with the test JVM's flags and class path. */
    static Process start(final String mode, final Path dir) throws IOException
    {
        return ChildJvm.start(LockHolder.class, mode, dir.toString());
    }

    /** The child's first line of output. */
    static String firstLine(final Process child) throws IOException
    {
        final BufferedReader lines = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        final String line = lines.readLine();
        return line == null ? "<no output>" : line;
    }

    /** Runs {@code try DIR} in a child and returns its exit code and first line. */
    static String tryOpen(final Path dir) throws IOException, InterruptedException
    {
        final Process child = start("try", dir);
        final String line = firstLine(child);
        if (!child.waitFor(60, TimeUnit.SECONDS))
        {
            child.destroyForcibly();
            throw new IllegalStateException("the child did not finish");
        }
        return child.exitValue() + " " + line;
    }
}
