package io.ringwatch.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import io.ringwatch.engine.kv.KeyValue;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StateCommandTest
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
    void stateAtEveryRevisionEqualsWhatTheEngineHeldThen()
    {
        for (long revision = 1; revision <= HistoryFixture.LAST; revision++)
        {
            final HistoryFixture.Run run = HistoryFixture.run("state", history.directory.toString(), "--at", Long.toString(revision));

            assertEquals(0, run.exitCode(), run.err());
            assertEquals(history.expectedStateLines(revision, KeyFilter.all()), run.lines(), "state at " + revision);
            assertTrue(run.err().startsWith(history.stateAt.get(revision).size() + " keys at revision " + revision), run.err());
        }
    }

    @Test
    void stateStartsFromTheSnapshotThatLeavesLeastToRead()
    {
        assertTrue(stderrOf(10).contains("replayed from revision 1"), stderrOf(10));
        assertTrue(stderrOf(25).contains("from the snapshot at revision " + HistoryFixture.FIRST_SESSION_END), stderrOf(25));
        assertTrue(stderrOf(HistoryFixture.LAST).contains("from the snapshot at revision " + HistoryFixture.LAST),
            stderrOf(HistoryFixture.LAST));
    }

    @Test
    void keyPrefixAndRangeSelectionsKeepOnlyTheirKeys()
    {
        for (final long revision : new long[]{9, 22, HistoryFixture.LAST})
        {
            final String at = Long.toString(revision);
            final String dir = history.directory.toString();
            assertEquals(history.expectedStateLines(revision, KeyFilter.prefix("/b/")),
                HistoryFixture.run("state", dir, "--at", at, "--prefix", "/b/").lines(), "prefix at " + revision);
            assertEquals(history.expectedStateLines(revision, KeyFilter.key("/a/2")),
                HistoryFixture.run("state", dir, "--at", at, "--key", "/a/2").lines(), "key at " + revision);
            assertEquals(history.expectedStateLines(revision, KeyFilter.range("/a/3,/c/1")),
                HistoryFixture.run("state", dir, "--at", at, "--range", "/a/3,/c/1").lines(), "range at " + revision);
        }
    }

    @Test
    void jsonStateParsesBackToTheEngineKeyValues()
    {
        final HistoryFixture.Run run = HistoryFixture.run("state", history.directory.toString(), "--at", "12", "--format", "json");

        assertEquals(0, run.exitCode(), run.err());
        final List<KeyValue> parsed = new ArrayList<>();
        for (final String line : run.lines())
        {
            final Map<String, Object> entry = FlatJson.parse(line);
            parsed.add(new KeyValue(bytes(entry, "key"), bytes(entry, "value"), (Long)entry.get("createRevision"),
                (Long)entry.get("modRevision"), (Long)entry.get("version")));
        }
        assertEquals(history.stateAt.get(12L), parsed);
    }

    @Test
    void aCorruptSnapshotIsSkippedWithAWarningAndTheStateIsStillRight() throws IOException
    {
        final Path copy = history.copyTo(temp);
        final Path snapshot = SnapshotCatalog.file(copy, HistoryFixture.FIRST_SESSION_END);
        final byte[] bytes = Files.readAllBytes(snapshot);
        bytes[bytes.length / 2] ^= 0x40;
        Files.write(snapshot, bytes);

        final HistoryFixture.Run run = HistoryFixture.run("state", copy.toString(), "--at", "25");

        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.err().contains("warning: skipping snapshot " + HistoryFixture.FIRST_SESSION_END), run.err());
        assertTrue(run.err().contains("replayed from revision 1"), run.err());
        assertEquals(history.expectedStateLines(25, KeyFilter.all()), run.lines());
    }

    private static String stderrOf(final long revision)
    {
        return HistoryFixture.run("state", history.directory.toString(), "--at", Long.toString(revision)).err();
    }

    private static byte[] bytes(final Map<String, Object> entry, final String name)
    {
        final String text = (String)entry.get(name);
        return Boolean.TRUE.equals(entry.get(name + "Base64")) ?
            Base64.getDecoder().decode(text) : text.getBytes(StandardCharsets.UTF_8);
    }
}
