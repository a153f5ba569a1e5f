package io.ringwatch.replay.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.PrintWriter;
import java.io.StringWriter;

import io.ringwatch.replay.ReplayMain;
import picocli.CommandLine;

/**
 * One run of {@code ringwatch-replay} in this JVM with captured output, as a user's shell would
 * see it; an exception or Error escaping the tool is kept as its stack trace on stderr.
 *
 * @param exitCode the exit status.
 * @param out      what went to stdout.
 * @param err      what went to stderr.
 */
record ToolRun(int exitCode, String out, String err)
{
    /**
     * @param args the command line.
     * @return what the run printed and its status.
     */
    static ToolRun of(final String... args)
    {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final CommandLine commandLine = ReplayMain.commandLine();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        try
        {
            final int code = commandLine.execute(args);
            return new ToolRun(code, out.toString(), err.toString());
        }
        catch (final Throwable escaped)
        {
            final StringWriter trace = new StringWriter();
            escaped.printStackTrace(new PrintWriter(trace));
            return new ToolRun(-1, out.toString(), err + trace.toString());
        }
    }

    /** Asserts no stack trace and no Error reached the user. */
    void assertNoStackTrace(final String what)
    {
        final String all = out + err;
        assertFalse(all.contains("\tat ") || all.contains("Exception in") || exitCode == -1,
            what + " printed a stack trace or let an Error escape: " + this);
    }

    /** Asserts a failure told in one line on stderr with a nonzero exit, no stack trace. */
    void assertOneLineFailure(final String what)
    {
        assertNoStackTrace(what);
        assertFalse(exitCode == 0, what + " exited 0: " + this);
        assertEquals(1, err.strip().lines().count(), what + " did not print exactly one line on stderr: " + this);
    }
}
