package io.ringwatch.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProgressTest
{
    @TempDir
    Path temp;

    private long now = 1_000_000_000L;

    @Test
    void redrawsAtMostTenTimesASecond()
    {
        final StringWriter err = new StringWriter();
        final Progress progress = new Progress(new PrintWriter(err), "verify", 1000, () -> now);

        for (int done = 1; done <= 1000; done++)
        {
            progress.advance(done);
            now += 1_000_000L;
        }
        progress.finish();

        final long draws = err.toString().chars().filter(c -> c == '\r').count();
        // 1 s of simulated work: a draw at 0, 100, ..., 900 ms, and the final one.
        assertEquals(10 + 1, draws, err.toString());
        // 1000 revisions in 1 s of simulated time: 1,000 rev/s and nothing left.
        assertTrue(err.toString().endsWith("verify [" + "#".repeat(30) + "] 100%  1000/1000 revisions  1,000 rev/s  ETA 0:00:00" +
            System.lineSeparator()), err.toString());
    }

    @Test
    void theLineShowsTheShareDone()
    {
        final Progress progress = new Progress(new PrintWriter(new StringWriter()), "state", 200, () -> now);

        assertEquals("state [" + "#".repeat(15) + "-".repeat(15) + "]  50%  100/200 revisions", progress.line(100, 0));
        assertEquals("state [" + "-".repeat(30) + "]   0%  0/200 revisions", progress.line(0, 0));
    }

    @Test
    void theLineShowsTheRateSoFarAndTheTimeLeftAtThatRate()
    {
        final Progress progress = new Progress(new PrintWriter(new StringWriter()), "print", 1_000_000, () -> now);

        // 250,000 in 2 s: 125,000 rev/s, 750,000 left take 6 s.
        assertTrue(progress.line(250_000, 2_000_000_000L).endsWith("250000/1000000 revisions  125,000 rev/s  ETA 0:00:06"),
            progress.line(250_000, 2_000_000_000L));
        assertTrue(progress.line(0, 1_000_000_000L).endsWith("0 rev/s  ETA -"), progress.line(0, 1_000_000_000L));
        assertEquals("1:01:05", Progress.clock(3665));
    }

    @Test
    void theBarStaysSilentWhenStderrIsNotATerminalUnlessForced()
    {
        final ProgressOption option = new ProgressOption();
        assertFalse(option.shows(false));
        assertTrue(option.shows(true));
        option.forced = true;
        assertTrue(option.shows(false));
        assertFalse(Terminal.consoleIsTerminal(null));
    }

    @Test
    void aCommandWhoseStderrIsNotATerminalWritesNoCarriageReturnsAndProgressForcesThem()
    {
        final String previous = System.getProperty(Terminal.PROPERTY);
        System.setProperty(Terminal.PROPERTY, "false");
        try
        {
            final Path log = temp.resolve("log");
            new HistoryFixture(log);
            final HistoryFixture.Run silent = HistoryFixture.run("verify", log.toString());
            final HistoryFixture.Run forced = HistoryFixture.run("verify", log.toString(), "--progress");

            assertEquals(ExitCodes.OK, silent.exitCode(), silent.err());
            assertEquals("", silent.err());
            assertEquals(ExitCodes.OK, forced.exitCode(), forced.err());
            assertTrue(forced.err().startsWith("\rverify ["), forced.err());
            assertFalse(silent.out().contains("\r"));
        }
        finally
        {
            if (previous == null)
            {
                System.clearProperty(Terminal.PROPERTY);
            }
            else
            {
                System.setProperty(Terminal.PROPERTY, previous);
            }
        }
    }

    @Test
    void aDisabledBarAndAnUnusedBarWriteNothing()
    {
        final StringWriter err = new StringWriter();
        Progress.none().advance(5);
        Progress.none().finish();
        new Progress(new PrintWriter(err), "print", 10, () -> now).finish();

        assertEquals("", err.toString());
    }
}
