package io.ringwatch.replay;

import java.io.Console;
import java.lang.reflect.Method;

/**
 * Whether the tool's stderr is a terminal, so a progress bar is drawn only where someone watches
 * it and never as {@code \r} frames into a file or a pipe. The launcher script tests
 * {@code [ -t 2 ]} and passes the answer as the system property {@value #PROPERTY}; without it (the
 * jar run by hand) the JVM's own view is used: a console exists and, on JDK 22 and later where a
 * console exists even when redirected, {@code Console.isTerminal()} says so. Stateless; any thread.
 */
final class Terminal
{
    /** The system property the launcher sets to {@code true} or {@code false}. */
    static final String PROPERTY = "ringwatch.replay.stderr.terminal";

    private Terminal()
    {
    }

    /**
     * Whether stderr is a terminal, as far as can be told.
     *
     * @return true only when the launcher said so, or (without the launcher) a console is attached.
     */
    static boolean stderrIsTerminal()
    {
        final String told = System.getProperty(PROPERTY);
        if (told != null)
        {
            return Boolean.parseBoolean(told);
        }
        return consoleIsTerminal(System.console());
    }

    /**
     * The JVM's view: a console that is a terminal.
     *
     * @param console {@link System#console()}, or null.
     * @return false for null; the console's {@code isTerminal()} where the JDK has it (22+), else true.
     */
    static boolean consoleIsTerminal(final Console console)
    {
        if (console == null)
        {
            return false;
        }
        try
        {
            // Java 17 baseline: isTerminal() exists from JDK 22, where System.console() is no longer
            // null on a redirected stdout.
            final Method isTerminal = Console.class.getMethod("isTerminal");
            return (Boolean)isTerminal.invoke(console);
        }
        catch (final NoSuchMethodException ex)
        {
            return true;
        }
        catch (final ReflectiveOperationException ex)
        {
            return false;
        }
    }
}
