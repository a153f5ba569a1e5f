package io.ringwatch.perf.biglist;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BigListBenchmarkTest
{
    @Test
    void everyReadSucceedsAndEveryFigureIsPrinted()
    {
        final StringWriter out = new StringWriter();
        final CommandLine commandLine = BigListBenchmark.commandLine();
        commandLine.setOut(new PrintWriter(out));

        final int exit = commandLine.execute("--keys", "20000", "--reads", "2", "--alone-seconds", "0.2");

        assertEquals(CommandLine.ExitCode.OK, exit, out.toString());
        assertTrue(out.toString().contains("reads ok / attempted: 2 / 2"), out.toString());
        assertTrue(out.toString().contains("writer during reads / alone"), out.toString());
        assertTrue(out.toString().contains("collections during the reads: "), out.toString());
    }

    @Test
    void optionsThatCannotRunAreAUsageError()
    {
        final StringWriter err = new StringWriter();
        final CommandLine commandLine = BigListBenchmark.commandLine();
        commandLine.setErr(new PrintWriter(err));

        assertEquals(CommandLine.ExitCode.USAGE, commandLine.execute("--keys", "0"));
        assertTrue(err.toString().contains("keys must be"), err.toString());
    }
}
