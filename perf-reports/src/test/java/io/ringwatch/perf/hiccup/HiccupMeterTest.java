package io.ringwatch.perf.hiccup;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HiccupMeterTest
{
    @Test
    void itReportsEveryThresholdForEachThread()
    {
        final StringWriter out = new StringWriter();
        final CommandLine commandLine = HiccupMeter.commandLine();
        commandLine.setOut(new PrintWriter(out));

        assertEquals(0, commandLine.execute("--threads", "2", "--duration", "50ms"));

        final String text = out.toString();
        assertTrue(text.startsWith("2 thread(s), PT0.05S each"), text);
        for (final String thread : new String[]{"thread 0:", "thread 1:"})
        {
            final String line = text.lines().filter(l -> l.startsWith(thread)).findFirst().orElseThrow();
            assertTrue(line.matches(thread + " >20us=\\d+ >100us=\\d+ >500us=\\d+ >1ms=\\d+ >2ms=\\d+ longest=[\\d.]+us"), line);
        }
    }

    @Test
    void noThreadsOrNoTimeIsAUsageError()
    {
        final StringWriter err = new StringWriter();
        final CommandLine commandLine = HiccupMeter.commandLine();
        commandLine.setErr(new PrintWriter(err));

        assertEquals(CommandLine.ExitCode.USAGE, commandLine.execute("--threads", "0"));
        assertEquals(CommandLine.ExitCode.USAGE, commandLine.execute("--duration", "0s"));
        assertTrue(err.toString().contains("--threads must be at least 1"), err.toString());
    }
}
