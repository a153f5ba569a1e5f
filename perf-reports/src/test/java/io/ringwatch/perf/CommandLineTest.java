package io.ringwatch.perf;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CommandLineTest
{
    @Test
    void persistenceWithoutADataDirectoryFailsClearlyBeforeAnythingRuns()
    {
        final StringWriter err = new StringWriter();
        final CommandLine commandLine = PerfMain.commandLine();
        commandLine.setErr(new PrintWriter(err));

        final int exit = commandLine.execute("--persistence", "async", "--reports-dir", "/nonexistent");

        assertEquals(CommandLine.ExitCode.USAGE, exit);
        assertTrue(err.toString().contains("needs --data-dir"), err.toString());
    }

    @Test
    void aModeNamedTwiceIsRefused()
    {
        final StringWriter err = new StringWriter();
        final CommandLine commandLine = PerfMain.commandLine();
        commandLine.setErr(new PrintWriter(err));

        final int exit = commandLine.execute("--persistence", "none,none", "--reports-dir", "/nonexistent");

        assertEquals(CommandLine.ExitCode.USAGE, exit);
        assertTrue(err.toString().contains("--persistence takes distinct modes"), err.toString());
    }

    @Test
    void aListOfPersistenceModesRunsEachInItsOwnLogDirectoryAndComparesThemWithInMemory(
        @TempDir final Path reports, @TempDir final Path data) throws IOException
    {
        final CommandLine commandLine = PerfMain.commandLine();

        final int exit = commandLine.execute("--persistence", "none,async", "--data-dir", data.toString(), "--rate", "1000",
            "--warmup", "100ms", "--duration", "300ms", "--watchers", "4", "--keys", "10", "--reports-dir", reports.toString(),
            "--name", "modes");

        assertEquals(0, exit);
        final Path run;
        try (Stream<Path> runs = Files.list(reports))
        {
            run = runs.filter(p -> p.getFileName().toString().endsWith("-modes")).findFirst().orElseThrow();
        }
        final String summary = Files.readString(run.resolve("summary.txt"));
        assertTrue(summary.contains("persistence ringwatch-async: p99 write-to-listener"), summary);
        assertTrue(Files.isDirectory(data.resolve("async-1").resolve("queue")), "the async run's log");
        assertTrue(Files.notExists(data.resolve("none-1")), "the in-memory run writes no log");
    }

    @Test
    void aWriteRingThatIsNotAPowerOfTwoIsRefusedBeforeAnythingRuns()
    {
        final StringWriter err = new StringWriter();
        final CommandLine commandLine = PerfMain.commandLine();
        commandLine.setErr(new PrintWriter(err));

        final int exit = commandLine.execute("--write-ring-size", "1000", "--reports-dir", "/nonexistent");

        assertEquals(CommandLine.ExitCode.USAGE, exit);
        assertTrue(err.toString().contains("write ring size must be a power of two >= 2: 1000"), err.toString());
    }

    @Test
    void repeatBelowOneIsRefused()
    {
        final StringWriter err = new StringWriter();
        final CommandLine commandLine = PerfMain.commandLine();
        commandLine.setErr(new PrintWriter(err));

        final int exit = commandLine.execute("--repeat", "0", "--reports-dir", "/nonexistent");

        assertEquals(CommandLine.ExitCode.USAGE, exit);
        assertTrue(err.toString().contains("--repeat must be at least 1: 0"), err.toString());
    }

    @Test
    void repeatedRunsOfAPeerLandInOneReportWithTheirSpread(@TempDir final Path reports) throws IOException
    {
        final CommandLine commandLine = PerfMain.commandLine();

        final int exit = commandLine.execute("--engine", "disruptor", "--rate", "1000", "--warmup", "100ms", "--duration", "300ms",
            "--watchers", "4", "--keys", "10", "--repeat", "2", "--reports-dir", reports.toString(), "--name", "repeat");

        assertEquals(0, exit);
        final Path run;
        try (Stream<Path> runs = Files.list(reports))
        {
            run = runs.filter(p -> p.getFileName().toString().endsWith("-repeat")).findFirst().orElseThrow();
        }
        final String page = Files.readString(run.resolve("index.html"));
        assertTrue(page.contains("<tr><td class=\"l\" rowspan=\"3\">disruptor</td><td rowspan=\"3\">2</td>"), page);
        assertTrue(page.contains("<polyline class=\"p99\" data-series=\"disruptor\""), page);
        assertTrue(Files.readString(run.resolve("summary.txt")).contains("disruptor  2 runs: p50 "));
    }

    @Test
    void persistenceIsRefusedForPeersThatCannotHonourIt()
    {
        final StringWriter err = new StringWriter();
        final CommandLine commandLine = PerfMain.commandLine();
        commandLine.setErr(new PrintWriter(err));

        final int exit = commandLine.execute("--engine", "juc", "--persistence", "sync");

        assertEquals(CommandLine.ExitCode.USAGE, exit);
        assertTrue(err.toString().contains("--persistence applies to --engine ringwatch and ringwatch-server"), err.toString());
    }

    @Test
    void theDisruptorFloorIsAnEngineAloneOrInAList()
    {
        final CommandLine commandLine = PerfMain.commandLine();

        assertEquals(List.of(PeerKind.DISRUPTOR),
            commandLine.parseArgs("--engine", "disruptor").matchedOptionValue("--engine", List.of()));
        assertEquals(List.of(PeerKind.RINGWATCH, PeerKind.JUC, PeerKind.DISRUPTOR),
            PerfMain.commandLine().parseArgs("--engine", "ringwatch,juc,disruptor").matchedOptionValue("--engine", List.of()));
    }

    @Test
    void pullWatchersAreRefusedForTheDisruptorFloor()
    {
        final StringWriter err = new StringWriter();
        final CommandLine commandLine = PerfMain.commandLine();
        commandLine.setErr(new PrintWriter(err));

        final int exit = commandLine.execute("--engine", "ringwatch,disruptor", "--pull-watchers", "10", "--reports-dir", "/nonexistent");

        assertEquals(CommandLine.ExitCode.USAGE, exit);
        assertTrue(err.toString().contains("--pull-watchers needs --engine ringwatch only; push watchers only in: disruptor"),
            err.toString());
    }

    @Test
    void settingsTheEngineRefusesAreAUsageError()
    {
        final StringWriter err = new StringWriter();
        final CommandLine commandLine = PerfMain.commandLine();
        commandLine.setErr(new PrintWriter(err));

        final int exit = commandLine.execute("--key-size", "70000", "--keys", "10", "--watchers", "1");

        assertEquals(CommandLine.ExitCode.USAGE, exit);
        assertTrue(err.toString().contains("max key bytes"), err.toString());
    }

    @Test
    void anUnknownStrategyListsTheKnownOnes()
    {
        final StringWriter err = new StringWriter();
        final CommandLine commandLine = PerfMain.commandLine();
        commandLine.setErr(new PrintWriter(err));

        final int exit = commandLine.execute("--writer-wait", "fast");

        assertEquals(CommandLine.ExitCode.USAGE, exit);
        assertTrue(err.toString().contains("wakeable, blocking, sleeping, yielding, busy-spin"), err.toString());
    }

    @Test
    void etcdConnectionsBelowOneAreRefused()
    {
        final StringWriter err = new StringWriter();
        final CommandLine commandLine = PerfMain.commandLine();
        commandLine.setErr(new PrintWriter(err));

        final int exit = commandLine.execute("--engine", "etcd", "--etcd-connections", "0", "--reports-dir", "/nonexistent");

        assertEquals(CommandLine.ExitCode.USAGE, exit);
        assertTrue(err.toString().contains("--etcd-connections must be at least 1: 0"), err.toString());
    }

    @Test
    void durationsReadShortAndIsoForms()
    {
        final DurationConverter converter = new DurationConverter();

        assertEquals(Duration.ofMillis(500), converter.convert("500ms"));
        assertEquals(Duration.ofSeconds(40), converter.convert("40s"));
        assertEquals(Duration.ofMinutes(2), converter.convert("2m"));
        assertEquals(Duration.ofSeconds(90), converter.convert("PT1M30S"));
        assertThrows(CommandLine.TypeConversionException.class, () -> converter.convert("soon"));
    }
}
