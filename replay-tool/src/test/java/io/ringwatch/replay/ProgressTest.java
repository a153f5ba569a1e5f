package io.ringwatch.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;

import org.junit.jupiter.api.Test;

class ProgressTest
{
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
        assertTrue(err.toString().endsWith("verify [" + "#".repeat(30) + "] 100%  1000/1000 revisions" + System.lineSeparator()),
            err.toString());
    }

    @Test
    void theLineShowsTheShareDone()
    {
        final Progress progress = new Progress(new PrintWriter(new StringWriter()), "state", 200, () -> now);

        assertEquals("state [" + "#".repeat(15) + "-".repeat(15) + "]  50%  100/200 revisions", progress.line(100));
        assertEquals("state [" + "-".repeat(30) + "]   0%  0/200 revisions", progress.line(0));
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
