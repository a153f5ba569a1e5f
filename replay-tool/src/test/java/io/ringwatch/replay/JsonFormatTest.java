package io.ringwatch.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --format json} on list, verify and republish: one JSON object that parses, with stable
 * field names (print and state are covered by their own tests).
 */
class JsonFormatTest
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
    void listAsJsonIsOneObjectWithTheSameFactsAsTheText()
    {
        final HistoryFixture.Run run = HistoryFixture.run("list", history.directory.toString(), "--format", "json");

        assertEquals(ExitCodes.OK, run.exitCode(), run.err());
        assertEquals(1, run.lines().size(), run.out());
        final Map<String, Object> list = FlatJson.parse(run.lines().get(0));
        assertEquals(List.of("directory", "firstRevision", "lastRevision", "revisions", "compactRevision", "snapshotRevision",
            "snapshots", "files", "cycleFiles", "snapshotFiles", "bytes", "incompleteTail", "firstTime", "lastTime",
            "spanSeconds"), List.copyOf(list.keySet()));
        assertEquals(history.directory.toString(), list.get("directory"));
        assertEquals(1L, list.get("firstRevision"));
        assertEquals(HistoryFixture.LAST, list.get("lastRevision"));
        assertEquals(HistoryFixture.LAST, list.get("revisions"));
        assertEquals(List.of(HistoryFixture.LAST, HistoryFixture.FIRST_SESSION_END), list.get("snapshots"));
        assertEquals(2L, list.get("snapshotFiles"));
        assertEquals(Boolean.FALSE, list.get("incompleteTail"));
        assertTrue(!Instant.parse((String)list.get("lastTime")).isBefore(Instant.parse((String)list.get("firstTime"))), run.out());
        assertTrue(list.get("spanSeconds") instanceof Number, run.out());
    }

    @Test
    void verifyAsJsonSaysOkWithTheRevisionsAndSnapshotsChecked()
    {
        final HistoryFixture.Run run = HistoryFixture.run("verify", history.directory.toString(), "--format", "json");

        assertEquals(ExitCodes.OK, run.exitCode(), run.err());
        final Map<String, Object> verify = FlatJson.parse(run.out().strip());
        assertEquals(Map.of("ok", true, "firstRevision", 1L, "lastRevision", HistoryFixture.LAST, "revisions", HistoryFixture.LAST,
            "skipped", 0L, "snapshots", List.of(HistoryFixture.LAST, HistoryFixture.FIRST_SESSION_END),
            "snapshotsDeletedMeanwhile", List.of(), "incompleteTail", false), verify);
    }

    @Test
    void republishAsJsonReportsSourceTargetBaseAndRate()
    {
        final Path target = temp.resolve("republished");

        final HistoryFixture.Run run = HistoryFixture.run("republish", history.directory.toString(), "--into", target.toString(),
            "--from", "11", "--format", "json");

        assertEquals(ExitCodes.OK, run.exitCode(), run.err());
        final Map<String, Object> summary = FlatJson.parse(run.out().strip());
        assertEquals(history.directory.toString(), summary.get("source"));
        assertEquals(11L, summary.get("fromRevision"));
        assertEquals(HistoryFixture.LAST, summary.get("toRevision"));
        assertEquals(HistoryFixture.LAST - 10, summary.get("revisions"));
        assertEquals(target.toString(), summary.get("into"));
        assertEquals(1L, summary.get("targetFirstRevision"));
        assertEquals(10L, summary.get("baseSourceRevision"));
        assertTrue((Long)summary.get("baseKeys") > 0, run.out());
        assertEquals((Long)summary.get("baseTxns") + (Long)summary.get("revisions"), summary.get("targetLastRevision"), run.out());
        assertEquals("max", summary.get("pace"));
        assertTrue(summary.get("revisionsPerSecond") instanceof Number, run.out());
    }

    @Test
    void errorsStayOneLineOnStderrWithJson()
    {
        final HistoryFixture.Run run = HistoryFixture.run("verify", temp.resolve("missing").toString(), "--format", "json");

        assertEquals(ExitCodes.NO_LOG, run.exitCode());
        assertEquals("", run.out());
        assertEquals(1, run.err().strip().lines().count(), run.err());
    }
}
