package io.ringwatch.perf.recovery;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RecoveryBenchmarkTest
{
    @TempDir
    Path work;

    @Test
    void twentyThousandRevisionsAreWrittenReplayedAndReopenedFromTheSnapshot() throws IOException
    {
        final Path directory = work.resolve("data");
        final RecoverySettings settings = new RecoverySettings(20_000, 5_000, 100);

        final RecoveryFigures figures = new RecoveryRun(settings, directory, new PrintWriter(new StringWriter())).run();

        // The run itself checks each recovered engine's revision, key count and last value.
        assertEquals(settings, figures.settings());
        assertTrue(figures.writeNanos() > 0 && figures.rawReadNanos() > 0 && figures.replayNanos() > 0 && figures.snapshotOpenNanos() > 0,
            figures.toString());
        assertTrue(figures.logBytes() >= 20_000L * (16 + 100), "the log holds every revision: " + figures.logBytes());
        assertTrue(figures.snapshotBytes() >= 5_000L * (16 + 100), "one snapshot of every key: " + figures.snapshotBytes());
        assertEquals(figures.logBytes() + figures.snapshotBytes(), RecoveryRun.bytesUnder(directory));
        assertTrue(figures.appendRate() > 0 && figures.replayRate() > 0 && figures.snapshotOpenRate() > 0);
    }

    @Test
    void theCommandPrintsEveryFigureAndDeletesItsData() throws IOException
    {
        final StringWriter out = new StringWriter();
        final CommandLine commandLine = RecoveryBenchmark.commandLine();
        commandLine.setOut(new PrintWriter(out));

        final int exit = commandLine.execute("--revisions", "20000", "--keys", "1000", "--work-dir", work.toString());

        assertEquals(CommandLine.ExitCode.OK, exit, out.toString());
        for (final String phase : new String[]{"write ", "close ", "raw read ", "replay ", "snapshot ", "reopen "})
        {
            assertTrue(out.toString().contains(phase), phase + " missing from:\n" + out);
        }
        assertTrue(out.toString().contains("20,000 revisions"), out.toString());
        try (Stream<Path> left = Files.list(work))
        {
            assertEquals(0, left.count(), "the data directory is deleted");
        }
    }

    @Test
    void optionsThatCannotRunAreAUsageErrorAndCreateNothing() throws IOException
    {
        final StringWriter err = new StringWriter();
        final CommandLine commandLine = RecoveryBenchmark.commandLine();
        commandLine.setErr(new PrintWriter(err));

        final int exit = commandLine.execute("--revisions", "0", "--work-dir", work.resolve("never").toString());

        assertEquals(CommandLine.ExitCode.USAGE, exit);
        assertTrue(err.toString().contains("--revisions must be at least 1"), err.toString());
        assertFalse(Files.exists(work.resolve("never")));
    }

    @Test
    void settingsRefuseValuesTooShortForThePutNumber()
    {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new RecoverySettings(10, 10, 7));

        assertTrue(e.getMessage().contains("--value-size must be at least 8"), e.getMessage());
    }

    @Test
    void aDirectoryThatIsNotEmptyIsRefusedAndLeftAlone() throws IOException
    {
        final Path directory = Files.createDirectories(work.resolve("used"));
        final Path foreign = Files.writeString(directory.resolve("keep-me"), "data");

        final RecoveryRun run = new RecoveryRun(new RecoverySettings(10, 10, 8), directory, new PrintWriter(new StringWriter()));

        assertThrows(IllegalArgumentException.class, run::run);
        assertEquals("data", Files.readString(foreign));
    }

    @Test
    void aRunLargerThanTheFreeDiskIsRefusedBeforeWriting() throws IOException
    {
        final Path directory = work.resolve("huge");
        final long freeBytes = Files.getFileStore(work).getUsableSpace();
        final RecoverySettings settings = new RecoverySettings(freeBytes / 100, 1_000, 100);

        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> new RecoveryRun(settings, directory, new PrintWriter(new StringWriter())).run());

        assertTrue(e.getMessage().contains("MB free"), e.getMessage());
        assertFalse(Files.exists(directory));
    }

    @Test
    void theEstimateCoversTheLogWithPreviousValuesAndOneSnapshot()
    {
        final RecoverySettings settings = new RecoverySettings(10_000_000, 1_000_000, 100);

        // 10M revisions of (28 + 61 + 8 + 16 + 2 x 100) bytes, plus 1M snapshot entries of (40 + 16 + 100).
        assertEquals(10_000_000L * 313 + 1_000_000L * 156, settings.estimatedDiskBytes());
    }
}
