package io.ringwatch.persistence;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
        final List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        for (final String argument : ManagementFactory.getRuntimeMXBean().getInputArguments())
        {
            if (argument.startsWith("--add-") || argument.startsWith("--enable-native-access") ||
                argument.startsWith("--sun-misc") || argument.startsWith("-Dchronicle"))
            {
                command.add(argument);
            }
        }
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(LockHolder.class.getName());
        command.add(mode);
        command.add(dir.toString());
        return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
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
