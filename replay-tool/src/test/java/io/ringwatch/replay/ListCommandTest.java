package io.ringwatch.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ListCommandTest
{
    @TempDir
    static Path temp;

    private static HistoryFixture history;

    @BeforeAll
    static void writeHistory()
    {
        history = new HistoryFixture(temp.resolve("log"));
    }

    @Test
    void listShowsRevisionsSnapshotsFilesAndTimeSpan()
    {
        final long before = System.currentTimeMillis();
        final HistoryFixture.Run run = HistoryFixture.run("list", history.directory.toString());

        assertEquals(0, run.exitCode(), run.err());
        final Map<String, String> facts = facts(run);
        assertEquals("1", facts.get("first revision"));
        assertEquals(Long.toString(HistoryFixture.LAST), facts.get("last revision"));
        assertEquals(Long.toString(HistoryFixture.LAST), facts.get("revisions"));
        assertEquals("0", facts.get("compact revision"));
        assertEquals(Long.toString(HistoryFixture.LAST), facts.get("snapshot revision"));
        assertEquals("[" + HistoryFixture.LAST + ", " + HistoryFixture.FIRST_SESSION_END + "]", facts.get("snapshots"));
        assertTrue(facts.get("files").matches("\\d+ \\(1 queue cycle files, 2 snapshots\\)"), facts.get("files"));
        assertTrue(Long.parseLong(facts.get("bytes").split(" ")[0]) > 0, facts.get("bytes"));
        final String[] span = facts.get("time span").split(" ");
        final Instant first = Instant.parse(span[0]);
        final Instant last = Instant.parse(span[2]);
        assertTrue(!last.isBefore(first), facts.get("time span"));
        assertTrue(last.toEpochMilli() <= before, "the log was written before the list: " + facts.get("time span"));
    }

    @Test
    void listOfAnEmptyLogSaysSo()
    {
        HistoryFixture.openEngine(temp.resolve("empty")).close();

        final HistoryFixture.Run run = HistoryFixture.run("list", temp.resolve("empty").toString());

        assertEquals(0, run.exitCode(), run.err());
        final Map<String, String> facts = facts(run);
        assertEquals("0", facts.get("last revision"));
        assertEquals("0", facts.get("revisions"));
        assertEquals("-", facts.get("time span"));
        final String empty = temp.resolve("empty").toString();
        assertEquals("OK: no revisions; snapshots valid: []", HistoryFixture.run("verify", empty).out().strip());
        assertEquals("", HistoryFixture.run("print", empty).out());
        final HistoryFixture.Run state = HistoryFixture.run("state", empty, "--at", "1");
        assertEquals(ExitCodes.BAD_REVISION, state.exitCode());
        assertEquals("ringwatch-replay state: " + empty + " holds no revision yet", state.err().strip());
    }

    private static Map<String, String> facts(final HistoryFixture.Run run)
    {
        final Map<String, String> facts = new HashMap<>();
        for (final String line : run.lines())
        {
            final int colon = line.indexOf(": ");
            facts.put(line.substring(0, colon), line.substring(colon + 2));
        }
        return facts;
    }
}
