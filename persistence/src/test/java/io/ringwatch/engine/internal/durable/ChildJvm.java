package io.ringwatch.engine.internal.durable;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

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
        command.add(main.getName());
        command.addAll(List.of(arguments));
        return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    }
}
