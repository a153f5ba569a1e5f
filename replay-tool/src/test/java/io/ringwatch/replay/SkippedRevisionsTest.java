package io.ringwatch.replay;

import static io.ringwatch.engine.DirectoryTrees.copyTree;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.persistence.LogConfig;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A log an ASYNC engine reopened after an unclean close holds a SKIP (revisions that will never
 * exist, compacted): verify, print and state step over it. The kill is simulated by copying the
 * directory while the engine is open.
 */
class SkippedRevisionsTest
{
    private static final long BUMP = 100;

    @TempDir
    static Path temp;

    private static Path log;

    @BeforeAll
    static void writeALogWithASkip() throws IOException
    {
        final Path live = temp.resolve("live");
        log = temp.resolve("log");
        try (RingWatch engine = open(live))
        {
            engine.put("/a", "1");
            engine.put("/b", "2");
            engine.put("/c", "3");
            copyTree(live, log);
        }
        try (RingWatch engine = open(log))
        {
            assertEquals(3 + BUMP, engine.currentRevision());
            engine.put("/a", "4");
            engine.put("/d", "5");
        }
    }

    private static RingWatch open(final Path directory)
    {
        return RingWatch.open(RingWatchConfig.builder().writeRingSize(64).crashRevisionBump(BUMP)
            .snapshotEveryRevisions(0).persistence(LogConfig.builder(directory).build()).build());
    }

    @Test
    void verifySaysTheSkippedRevisionsApartFromTheHeldOnes()
    {
        final HistoryFixture.Run run = HistoryFixture.run("verify", log.toString());
        assertEquals(ExitCodes.OK, run.exitCode(), run.err());
        assertTrue(run.out().startsWith("OK: revisions 1.." + (5 + BUMP) + " (5) contiguous (" + BUMP +
            " skipped after unclean closes)"), run.out());
        final HistoryFixture.Run json = HistoryFixture.run("verify", log.toString(), "--format", "json");
        assertEquals(ExitCodes.OK, json.exitCode(), json.err());
        assertEquals(5L, FlatJson.parse(json.out().strip()).get("revisions"), json.out());
        assertEquals(BUMP, FlatJson.parse(json.out().strip()).get("skipped"), json.out());
    }

    /**
     * {@code list} of a log that ends in a skip (an engine reopened after an unclean close and
     * closed before any write): the last revision's time is the skip's, not 0 (1970) as when
     * {@code list} read a revision that never existed; and the text says what its count counts.
     */
    @Test
    void listOfALogEndingInASkipGivesTheSkipsTimeAndCountsHeldRevisionsApart() throws IOException
    {
        final Path live = temp.resolve("ends-live");
        final Path endsInSkip = temp.resolve("ends-in-skip");
        try (RingWatch engine = open(live))
        {
            engine.put("/a", "1");
            copyTree(live, endsInSkip);
        }
        try (RingWatch engine = open(endsInSkip))
        {
            assertEquals(1 + BUMP, engine.currentRevision());
        }
        final HistoryFixture.Run json = HistoryFixture.run("list", endsInSkip.toString(), "--format", "json");
        assertEquals(ExitCodes.OK, json.exitCode(), json.err());
        final Map<String, Object> fields = FlatJson.parse(json.out().strip());
        assertEquals(1 + BUMP, fields.get("lastRevision"), json.out());
        final String lastTime = (String)fields.get("lastTime");
        assertTrue(lastTime.compareTo((String)fields.get("firstTime")) >= 0 && !lastTime.startsWith("1970"), json.out());
        final HistoryFixture.Run text = HistoryFixture.run("list", log.toString());
        assertTrue(text.out().contains("revisions: " + (5 + BUMP) + "\n"), text.out());
        assertTrue(text.out().contains("numbers skipped after unclean closes included"), text.out());
    }

    /**
     * {@code republish} of a log with a skip: the target is a new history, numbered contiguously (the
     * engine has no way to skip numbers on request), so the source's revisions after the skip arrive
     * under lower numbers; the state is the same.
     */
    @Test
    void republishNumbersTheTargetContiguouslyAcrossASkip()
    {
        final Path into = temp.resolve("republished");
        final HistoryFixture.Run run = HistoryFixture.run("republish", log.toString(), "--into", into.toString(), "--format", "json");
        assertEquals(ExitCodes.OK, run.exitCode(), run.err());
        final Map<String, Object> fields = FlatJson.parse(run.out().strip());
        assertEquals(5L, fields.get("revisions"), run.out());
        assertEquals(1L, fields.get("targetFirstRevision"), run.out());
        assertEquals(5L, fields.get("targetLastRevision"), run.out());
        final HistoryFixture.Run source = HistoryFixture.run("state", log.toString(), "--at", Long.toString(5 + BUMP));
        final HistoryFixture.Run target = HistoryFixture.run("state", into.toString(), "--at", "5");
        assertEquals(ExitCodes.OK, target.exitCode(), target.err());
        assertEquals(source.out().replace("mod=" + (4 + BUMP), "mod=4").replace("mod=" + (5 + BUMP), "mod=5")
            .replace("create=" + (5 + BUMP), "create=5"), target.out());
    }

    @Test
    void printStepsOverTheSkipAndASpanInsideItPrintsNothing()
    {
        final HistoryFixture.Run across = HistoryFixture.run("print", log.toString(), "--from", "2", "--to", Long.toString(4 + BUMP),
            "--format", "json");
        assertEquals(ExitCodes.OK, across.exitCode(), across.err());
        final List<Long> printed = across.lines().stream().map(line -> (Long)FlatJson.parse(line).get("revision")).distinct().toList();
        assertEquals(List.of(2L, 3L, 4 + BUMP), printed, across.out());
        final HistoryFixture.Run inside = HistoryFixture.run("print", log.toString(), "--from", "10", "--to", "20");
        assertEquals(ExitCodes.OK, inside.exitCode(), inside.err());
        assertEquals("", inside.out());
    }

    @Test
    void theStateAtASkippedRevisionIsTheStateBeforeTheSkip()
    {
        final HistoryFixture.Run inside = HistoryFixture.run("state", log.toString(), "--at", "50", "--format", "json");
        assertEquals(ExitCodes.OK, inside.exitCode(), inside.err());
        final HistoryFixture.Run before = HistoryFixture.run("state", log.toString(), "--at", "3", "--format", "json");
        assertEquals(before.out(), inside.out());
        final HistoryFixture.Run after = HistoryFixture.run("state", log.toString(), "--at", Long.toString(5 + BUMP));
        assertEquals(ExitCodes.OK, after.exitCode(), after.err());
        assertTrue(after.out().contains("/d"), after.out());
    }
}
