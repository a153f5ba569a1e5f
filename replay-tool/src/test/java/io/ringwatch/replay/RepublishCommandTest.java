package io.ringwatch.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RepublishCommandTest
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
    void republishingTheWholeLogAtMaxPaceMakesTheSameHistoryRevisionForRevision()
    {
        final Path target = temp.resolve("whole");

        final HistoryFixture.Run run = HistoryFixture.run("republish", history.directory.toString(), "--into", target.toString());

        assertEquals(ExitCodes.OK, run.exitCode(), run.err());
        assertTrue(run.out().startsWith("republished revisions 1.." + HistoryFixture.LAST + " of " + history.directory +
            " (" + HistoryFixture.LAST + " revisions, "), run.out());
        assertTrue(run.out().contains("target revisions: 1.." + HistoryFixture.LAST + " (base state: none)"), run.out());
        assertEquals(withoutTimes(HistoryFixture.run("print", history.directory.toString()).lines()),
            withoutTimes(HistoryFixture.run("print", target.toString()).lines()));
        try (RingWatch engine = HistoryFixture.openEngine(target))
        {
            assertEquals(HistoryFixture.LAST, engine.currentRevision());
            assertEquals(history.stateAt.get(HistoryFixture.LAST), engine.range(KeyRange.all(), 0).kvs());
        }
    }

    @Test
    void republishingFromALaterRevisionWritesTheStateBeforeItFirst()
    {
        final Path target = temp.resolve("window");

        final HistoryFixture.Run run = HistoryFixture.run("republish", history.directory.toString(), "--into", target.toString(),
            "--from", "11", "--to", "25", "--pace", "max");

        assertEquals(ExitCodes.OK, run.exitCode(), run.err());
        final long baseKeys = history.stateAt.get(10L).size();
        assertTrue(run.out().contains("target revisions: 1..16 (base state: " + baseKeys + " keys at source revision 10, txns: 1)"),
            run.out());
        final HistoryFixture.Run state = HistoryFixture.run("state", target.toString(), "--at", "16", "--format", "json");
        assertEquals(ExitCodes.OK, state.exitCode(), state.err());
        assertEquals(valuesByKey(history.stateAt.get(25L)), parsedValuesByKey(state.lines()));
    }

    @Test
    void aPacedRepublishKeepsTheHistoryAndReportsItsPace()
    {
        final Path target = temp.resolve("paced");

        final HistoryFixture.Run run = HistoryFixture.run("republish", history.directory.toString(), "--into", target.toString(),
            "--to", "12", "--pace", "200x", "--progress");

        assertEquals(ExitCodes.OK, run.exitCode(), run.err());
        assertTrue(run.out().contains("pace 200x: "), run.out());
        assertTrue(run.err().contains("republish [" + "#".repeat(30) + "] 100%  12/12 revisions"), run.err());
        assertEquals(withoutTimes(HistoryFixture.run("print", history.directory.toString(), "--to", "12").lines()),
            withoutTimes(HistoryFixture.run("print", target.toString()).lines()));
    }

    @Test
    void theTargetMustBeMissingOrEmpty() throws IOException
    {
        final Path busy = Files.createDirectories(temp.resolve("busy"));
        Files.writeString(busy.resolve("something"), "x");

        final HistoryFixture.Run run = HistoryFixture.run("republish", history.directory.toString(), "--into", busy.toString());

        assertEquals(ExitCodes.USAGE, run.exitCode());
        assertEquals("ringwatch-replay republish: --into " + busy + " is not empty; re-publishing needs a fresh directory",
            run.err().strip());
        assertEquals(List.of(busy.resolve("something")), Files.list(busy).toList(), "nothing written");
    }

    private static List<String> withoutTimes(final List<String> lines)
    {
        final List<String> stripped = new ArrayList<>();
        for (final String line : lines)
        {
            stripped.add(line.replaceFirst(" time=\\S+", ""));
        }
        return stripped;
    }

    private static Map<String, String> valuesByKey(final List<KeyValue> kvs)
    {
        final Map<String, String> values = new TreeMap<>();
        for (final KeyValue kv : kvs)
        {
            values.put(HexKey.of(kv.key()), HexKey.of(kv.value()));
        }
        return values;
    }

    private static Map<String, String> parsedValuesByKey(final List<String> lines)
    {
        final Map<String, String> values = new TreeMap<>();
        for (final String line : lines)
        {
            final Map<String, Object> entry = FlatJson.parse(line);
            values.put(HexKey.of(decode(entry, "key")), HexKey.of(decode(entry, "value")));
        }
        return values;
    }

    private static byte[] decode(final Map<String, Object> entry, final String name)
    {
        final String text = (String)entry.get(name);
        return Boolean.TRUE.equals(entry.get(name + "Base64")) ?
            java.util.Base64.getDecoder().decode(text) : text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }
}
