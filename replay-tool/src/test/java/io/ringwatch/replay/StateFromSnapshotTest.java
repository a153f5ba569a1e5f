package io.ringwatch.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Logs an engine would not write in a test: a fuzzy snapshot (caught later than its revision)
 * and a log whose first revisions retention removed.
 */
class StateFromSnapshotTest
{
    @TempDir
    Path temp;

    @Test
    void aFuzzySnapshotIsCorrectedByThePreviousStatesRecordedAfterTheTargetRevision()
    {
        final Path dir = temp.resolve("fuzzy");
        final Map<Long, Map<String, KeyState>> truth = new TreeMap<>();
        try (HandWrittenLog log = new HandWrittenLog(dir, 1, Map.of()))
        {
            truth.put(log.put("k1", "a"), log.state());
            truth.put(log.put("k2", "a"), log.state());
            truth.put(log.put("k3", "a"), log.state());
            truth.put(log.put("k4", "a"), log.state());
            truth.put(log.put("k1", "b"), log.state());
            truth.put(log.delete("k2"), log.state());
            truth.put(log.put("k1", "c"), log.state());
            truth.put(log.put("k5", "a"), log.state());
            truth.put(log.put("k3", "b"), log.state());
            truth.put(log.delete("k5"), log.state());
            // Claims revision 5 but was scanned at revision 8: k1 and k5 too new, k2 already gone.
            log.snapshot(5, truth.get(8L));
        }

        for (long revision = 6; revision <= 10; revision++)
        {
            final HistoryFixture.Run run = HistoryFixture.run("state", dir.toString(), "--at", Long.toString(revision));

            assertEquals(0, run.exitCode(), run.err());
            assertTrue(run.err().contains("from the snapshot at revision 5"), run.err());
            assertEquals(lines(truth.get(revision)), run.lines(), "state at " + revision);
        }
    }

    @Test
    void aLogThatNoLongerStartsAtOneNeedsASnapshotAtOrBelowTheRevision()
    {
        final Path dir = temp.resolve("retained");
        final Map<String, KeyState> before = new TreeMap<>(Map.of("old", HandWrittenLog.state("old", "o", 40, 60, 3)));
        final Map<Long, Map<String, KeyState>> truth = new TreeMap<>();
        try (HandWrittenLog log = new HandWrittenLog(dir, 100, before))
        {
            for (int i = 0; i < 30; i++)
            {
                final long revision = i % 7 == 3 ? log.delete("k" + (i % 4)) : log.put(i % 5 == 0 ? "old" : "k" + (i % 4), "v" + i);
                truth.put(revision, log.state());
            }
            log.snapshot(115, truth.get(115L));
        }
        final String path = dir.toString();

        final HistoryFixture.Run beforeSnapshot = HistoryFixture.run("state", path, "--at", "110");
        assertEquals(ExitCodes.BAD_REVISION, beforeSnapshot.exitCode());
        assertTrue(beforeSnapshot.err().contains("the log starts at revision 100 and no usable snapshot at or below 110"),
            beforeSnapshot.err());
        for (final long revision : new long[]{115, 116, 129})
        {
            final HistoryFixture.Run run = HistoryFixture.run("state", path, "--at", Long.toString(revision));
            assertEquals(0, run.exitCode(), run.err());
            assertEquals(lines(truth.get(revision)), run.lines(), "state at " + revision);
        }
        final HistoryFixture.Run print = HistoryFixture.run("print", path, "--from", "99");
        assertEquals(ExitCodes.BAD_REVISION, print.exitCode());
        assertEquals("ringwatch-replay print: --from 99 is before the log's first revision 100 (retention removed older revisions)",
            print.err().strip());
        final HistoryFixture.Run verify = HistoryFixture.run("verify", path);
        assertEquals(0, verify.exitCode(), verify.err());
    }

    private static List<String> lines(final Map<String, KeyState> state)
    {
        final List<String> lines = new ArrayList<>();
        for (final KeyState key : state.values())
        {
            lines.add(OutputFormat.TEXT.entry(key));
        }
        return lines;
    }
}
