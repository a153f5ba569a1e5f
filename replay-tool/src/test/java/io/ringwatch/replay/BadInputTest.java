package io.ringwatch.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every bad input ends with its exit code, one readable line on stderr, nothing on stdout and no
 * stack trace.
 */
class BadInputTest
{
    @TempDir
    static Path temp;

    private static HistoryFixture history;
    private static String log;

    @BeforeAll
    static void writeHistory()
    {
        history = new HistoryFixture(temp.resolve("log"));
        log = history.directory.toString();
    }

    @Test
    void aMissingDirectory()
    {
        final String missing = temp.resolve("nowhere").toString();
        assertError(ExitCodes.NO_LOG, missing + " does not exist", "list", missing);
        assertError(ExitCodes.NO_LOG, missing + " does not exist", "verify", missing);
    }

    @Test
    void somethingThatIsNotARingWatchLog() throws IOException
    {
        final Path file = Files.writeString(temp.resolve("file.txt"), "hello");
        final Path foreign = Files.createDirectories(temp.resolve("foreign"));
        Files.writeString(foreign.resolve("notes.txt"), "hello");
        final Path empty = Files.createDirectories(temp.resolve("empty"));

        assertError(ExitCodes.NO_LOG, file + " is not a directory", "print", file.toString());
        assertError(ExitCodes.NO_LOG, "not a RingWatch log: " + foreign + " holds a foreign entry 'notes.txt'; refusing to use it",
            "state", foreign.toString(), "--at", "1");
        assertError(ExitCodes.NO_LOG, "not a RingWatch log: " + empty + " holds no revision log", "list", empty.toString());
    }

    @Test
    void revisionsOutOfTheLogsReach()
    {
        assertError(ExitCodes.BAD_REVISION, "--from must be a positive revision, got -3", "print", log, "--from=-3");
        assertError(ExitCodes.BAD_REVISION, "--from must be a positive revision, got -3", "print", log, "--from", "-3");
        assertError(ExitCodes.BAD_REVISION, "--to must be a positive revision, got 0", "print", log, "--to", "0");
        assertError(ExitCodes.BAD_REVISION, "--to 31 is beyond the log's last revision 30", "print", log, "--to", "31");
        assertError(ExitCodes.BAD_REVISION, "--from 20 is after --to 10", "print", log, "--from", "20", "--to", "10");
        assertError(ExitCodes.BAD_REVISION, "--at must be a positive revision, got 0", "state", log, "--at", "0");
        assertError(ExitCodes.BAD_REVISION, "--at must be a positive revision, got -1", "state", log, "--at=-1");
        assertError(ExitCodes.BAD_REVISION, "--at 99 is beyond the log's last revision 30", "state", log, "--at", "99");
        assertError(ExitCodes.BAD_REVISION, "--from 31 is beyond the log's last revision 30",
            "republish", log, "--into", temp.resolve("never").toString(), "--from", "31");
        assertTrue(Files.notExists(temp.resolve("never")), "a refused republish creates nothing");
    }

    @Test
    void malformedOrConflictingOptions()
    {
        assertUsage("print", log, "--key", "/a", "--prefix", "/b");
        assertUsage("state", log, "--at", "3", "--range", "/a", "--key", "/b");
        assertUsage("print", log, "--format", "xml");
        assertUsage("print", log, "--from", "seven");
        assertUsage("state", log);
        assertUsage("republish", log);
        assertUsage("republish", log, "--into", temp.resolve("x").toString(), "--pace", "fast");
        assertUsage("republish", log, "--into", temp.resolve("x").toString(), "--pace", "0x");
        final HistoryFixture.Run unknown = HistoryFixture.run("explode", log);
        assertEquals(ExitCodes.USAGE, unknown.exitCode(), unknown.err());
        assertEquals("ringwatch-replay: unknown command 'explode' Commands: list, print, state, verify, republish",
            unknown.err().strip());
        assertUsage();
        assertError(ExitCodes.USAGE, "--range takes K,END (a comma between the first key and the end key), got '/a'",
            "print", log, "--range", "/a");
        assertError(ExitCodes.USAGE, "--range end '/a' must sort after its start '/b'", "print", log, "--range", "/b,/a");
        assertError(ExitCodes.USAGE, "--range end must not be empty", "state", log, "--at", "2", "--range", "/a,");
        assertError(ExitCodes.USAGE, "--prefix must not be empty", "print", log, "--prefix", "");
        assertError(ExitCodes.USAGE, "--into " + temp.resolve("no/such/parent") + ": its parent directory does not exist",
            "republish", log, "--into", temp.resolve("no/such/parent").toString());
    }

    @Test
    void helpAndVersionSucceed()
    {
        final HistoryFixture.Run help = HistoryFixture.run("--help");
        final HistoryFixture.Run printHelp = HistoryFixture.run("print", "--help");

        assertEquals(0, help.exitCode());
        assertTrue(help.out().contains("republish") && help.out().contains("Exit codes:"), help.out());
        assertEquals(0, printHelp.exitCode());
        assertTrue(printHelp.out().contains("--range=K,END"), printHelp.out());
        assertEquals(0, HistoryFixture.run("--version").exitCode());
    }

    private static void assertError(final int exitCode, final String message, final String... args)
    {
        final HistoryFixture.Run run = HistoryFixture.run(args);
        assertEquals(exitCode, run.exitCode(), String.join(" ", args) + ": " + run.err());
        assertEquals("ringwatch-replay " + args[0] + ": " + message, run.err().strip(), String.join(" ", args));
        assertEquals("", run.out(), String.join(" ", args));
    }

    private static void assertUsage(final String... args)
    {
        final HistoryFixture.Run run = HistoryFixture.run(args);
        final String what = String.join(" ", args);
        assertEquals(ExitCodes.USAGE, run.exitCode(), what + ": " + run.err());
        assertEquals("", run.out(), what);
        assertTrue(!run.err().isBlank() && !run.err().contains("\tat "), what + ": " + run.err());
        if (args.length > 0)
        {
            assertEquals(1, run.err().strip().lines().count(), what + ": " + run.err());
            assertTrue(run.err().endsWith("(see --help)" + System.lineSeparator()), what + ": " + run.err());
        }
    }
}
