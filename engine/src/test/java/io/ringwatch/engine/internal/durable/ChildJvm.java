package io.ringwatch.engine.internal.durable;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Starts a main class of the test classpath in a child JVM with this JVM's module flags, as a
 * second process of a user's would run.
 */
public final class ChildJvm
{
    private ChildJvm()
    {
    }

    /**
     * @param main      the class whose main method runs.
     * @param arguments its arguments.
     * @return the started process; its stderr is discarded.
     * @throws IOException if it cannot start.
     */
    public static Process start(final Class<?> main, final String... arguments) throws IOException
    {
        return start(ProcessBuilder.Redirect.DISCARD, main, arguments);
    }

    /**
     * As {@link #start(Class, String...)}, with the child's stderr sent where {@code stderr} says.
     *
     * @param stderr    where the child's stderr goes, for example a file to show when it fails.
     * @param main      the class whose main method runs.
     * @param arguments its arguments.
     * @return the started process.
     * @throws IOException if it cannot start.
     */
    public static Process start(final ProcessBuilder.Redirect stderr, final Class<?> main, final String... arguments)
        throws IOException
    {
        return new ProcessBuilder(command(List.of(), main, arguments)).redirectError(stderr).start();
    }

    /**
     * The command line that runs {@code main} in a child JVM: this JVM's java, its module and
     * Chronicle flags, {@code jvmOptions}, the test class path, then the arguments.
     *
     * @param jvmOptions further JVM options, for example a heap bound.
     * @param main       the class whose main method runs.
     * @param arguments  its arguments.
     * @return the command, for a {@link ProcessBuilder} that redirects as its caller needs.
     */
    public static List<String> command(final List<String> jvmOptions, final Class<?> main, final String... arguments)
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
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(main.getName());
        command.addAll(List.of(arguments));
        return command;
    }

    /**
     * Runs a child that prints {@code ack <revision>} per acknowledged write, kills it with SIGKILL
     * (no shutdown hook, no close, whatever it was doing) once it printed {@code killAfter} of them,
     * and reads what it printed until it died.
     *
     * @param child     the started child.
     * @param killAfter acknowledgements to wait for.
     * @param onLine    told every line printed, the acks included.
     * @return the acknowledgements read before the kill (fewer than {@code killAfter} if the child
     *         ended on its own) and the newest revision acknowledged, in that order.
     * @throws Exception if reading fails or the child does not die.
     */
    public static long[] killAfterAcks(final Process child, final int killAfter, final Consumer<String> onLine)
        throws Exception
    {
        long last = 0;
        int acks = 0;
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8)))
        {
            String line;
            while (acks < killAfter && (line = lines.readLine()) != null)
            {
                if (line.startsWith("ack "))
                {
                    last = Math.max(last, Long.parseLong(line.substring(4)));
                    acks++;
                }
                onLine.accept(line);
            }
            child.toHandle().destroyForcibly();
            if (!child.waitFor(30, TimeUnit.SECONDS))
            {
                throw new IllegalStateException("the child did not die");
            }
            while ((line = lines.readLine()) != null)
            {
                if (line.startsWith("ack "))
                {
                    last = Math.max(last, Long.parseLong(line.substring(4)));
                }
                onLine.accept(line);
            }
        }
        return new long[] {acks, last};
    }
}
