package io.ringwatch.replay;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

import io.ringwatch.engine.kv.KeyValue;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PrintCommandTest
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
    void textLinesFormattedFromTheBufferAreTheLinesOfTheTextFormat()
    {
        // The fast text path must print exactly what OutputFormat.TEXT prints: binary keys and
        // values as hex, quotes, backslashes and line breaks, deletes, transactions.
        final List<String> expected = new ArrayList<>();
        try (SourceLog log = SourceLog.open(history.directory))
        {
            log.read(log.span(null, null), record ->
            {
                for (int i = 0; i < record.changeCount(); i++)
                {
                    final io.ringwatch.persistence.ChangeView change = record.change(i);
                    expected.add(OutputFormat.TEXT.event(record.revision(), record.timestampNanos(), change.type(),
                        KeyState.key(change), KeyState.after(change), KeyState.before(change)));
                }
            }, Progress.none());
        }
        final HistoryFixture.Run run = HistoryFixture.run("print", history.directory.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertEquals(expected, run.out().lines().toList());
        assertTrue(expected.stream().anyMatch(line -> line.contains("key=0x")), "a binary key is among them");
    }

    @Test
    void jsonEventsReplayedInOrderRebuildTheEngineStateAtEveryRevision()
    {
        final HistoryFixture.Run run = HistoryFixture.run("print", history.directory.toString(), "--format", "json");

        assertEquals(0, run.exitCode(), run.err());
        final Map<String, KeyValue> state = new TreeMap<>();
        long revision = 0;
        for (final String line : run.lines())
        {
            final Map<String, Object> event = FlatJson.parse(line);
            final long eventRevision = (Long)event.get("revision");
            assertTrue(eventRevision >= revision, "revisions in order: " + line);
            if (eventRevision != revision)
            {
                assertState(revision, state);
                revision = eventRevision;
            }
            final byte[] key = bytes(event, "key");
            final KeyValue before = state.get(HexKey.of(key));
            assertEquals(before == null ? 0L : before.modRevision(), event.get("prevModRevision"), line);
            assertArrayEquals(before == null ? null : before.value(), bytes(event, "prevValue"), line);
            if ("PUT".equals(event.get("type")))
            {
                state.put(HexKey.of(key), new KeyValue(key, bytes(event, "value"), (Long)event.get("createRevision"),
                    (Long)event.get("modRevision"), (Long)event.get("version")));
            }
            else
            {
                assertEquals("DELETE", event.get("type"));
                assertNull(event.get("value"));
                state.remove(HexKey.of(key));
            }
        }
        assertEquals(HistoryFixture.LAST, revision);
        assertState(revision, state);
    }

    @Test
    void filtersSelectExactlyTheChangedKeysTheyCover()
    {
        assertEvents(new String[]{"--key", "/a/2"}, KeyFilter.key("/a/2"), 1, HistoryFixture.LAST);
        assertEvents(new String[]{"--prefix", "/b/"}, KeyFilter.prefix("/b/"), 1, HistoryFixture.LAST);
        assertEvents(new String[]{"--range", "/a/2,/b/2"}, KeyFilter.range("/a/2,/b/2"), 1, HistoryFixture.LAST);
        assertEvents(new String[]{"--from", "8", "--to", "22"}, KeyFilter.all(), 8, 22);
        assertEvents(new String[]{"--from", "21", "--prefix", "/a/"}, KeyFilter.prefix("/a/"), 21, HistoryFixture.LAST);
        assertEvents(new String[]{"--to", "3"}, KeyFilter.all(), 1, 3);
    }

    @Test
    void textLinesShowRevisionTimeTypeKeyValueMetadataAndPreviousValue()
    {
        final HistoryFixture.Run run = HistoryFixture.run("print", history.directory.toString(), "--from", "6", "--to", "7");

        assertEquals(0, run.exitCode(), run.err());
        assertEquals(2, run.lines().size(), run.out());
        assertTrue(run.lines().get(0).matches("rev=6 time=\\d{4}-\\d\\d-\\d\\dT[0-9:.]+Z PUT key=\"/a/2\" value=\"v2-updated\" " +
            "create=2 mod=6 version=2 prev=\"v2\""), run.lines().get(0));
        assertTrue(run.lines().get(1).matches("rev=7 time=\\S+ DELETE key=\"/a/3\" value=- create=0 mod=7 version=0 prev=\"v3\""),
            run.lines().get(1));
    }

    @Test
    void aDeleteCarriesItsOwnRevisionAsModRevisionAsTheLiveWatchEventDoes()
    {
        final HistoryFixture.Run run = HistoryFixture.run("print", history.directory.toString(), "--format", "json");

        assertEquals(0, run.exitCode(), run.err());
        int deletes = 0;
        for (final String line : run.lines())
        {
            final Map<String, Object> event = FlatJson.parse(line);
            if ("DELETE".equals(event.get("type")))
            {
                deletes++;
                assertEquals(event.get("revision"), event.get("modRevision"), line);
                assertEquals(0L, event.get("createRevision"), line);
                assertEquals(0L, event.get("version"), line);
                assertNull(event.get("value"), line);
            }
        }
        assertTrue(deletes >= 5, "the history deletes keys: " + deletes);
    }

    @Test
    void bytesThatAreNotPrintableShowAsHexInTextAndAsFlaggedBase64InJson()
    {
        final HistoryFixture.Run text = HistoryFixture.run("print", history.directory.toString(), "--from", "11", "--to", "12");
        final HistoryFixture.Run json = HistoryFixture.run("print", history.directory.toString(), "--from", "11", "--to", "12",
            "--format", "JSON");

        assertEquals(0, text.exitCode(), text.err());
        assertTrue(text.lines().get(0).contains(" key=0x2f62696e2fff01 value=0xc328007f "), text.lines().get(0));
        assertTrue(text.lines().get(1).contains(" key=\"/q\" value=0x"), "a newline is not printable: " + text.lines().get(1));
        final Map<String, Object> binary = FlatJson.parse(json.lines().get(0));
        assertEquals(Boolean.TRUE, binary.get("keyBase64"));
        assertEquals(Boolean.TRUE, binary.get("valueBase64"));
        assertArrayEquals(HistoryFixture.BINARY_KEY, Base64.getDecoder().decode((String)binary.get("key")));
        assertArrayEquals(HistoryFixture.BINARY_VALUE, Base64.getDecoder().decode((String)binary.get("value")));
        final Map<String, Object> quoted = FlatJson.parse(json.lines().get(1));
        assertEquals("say \"hi\"\\ there\nnext line", quoted.get("value"));
        assertNull(quoted.get("valueBase64"));
    }

    private static void assertEvents(final String[] options, final KeyFilter filter, final long from, final long to)
    {
        final List<String> args = new ArrayList<>(List.of("print", history.directory.toString(), "--format", "json"));
        args.addAll(Arrays.asList(options));
        final HistoryFixture.Run run = HistoryFixture.run(args.toArray(new String[0]));

        assertEquals(0, run.exitCode(), run.err());
        final List<String> printed = new ArrayList<>();
        for (final String line : run.lines())
        {
            final Map<String, Object> event = FlatJson.parse(line);
            printed.add(event.get("revision") + " " + HexKey.of(bytes(event, "key")));
        }
        // Within a revision the log keeps the txn's order of operations, not key order.
        final List<String> expected = expectedEvents(filter, from, to);
        expected.sort(null);
        printed.sort(null);
        assertEquals(expected, printed, String.join(" ", options));
    }

    /**
     * Every (revision, key) whose state the revision changed, from the recorded states: a revision
     * changes each key at most once (the engine refuses duplicate keys in a txn).
     */
    private static List<String> expectedEvents(final KeyFilter filter, final long from, final long to)
    {
        final List<String> events = new ArrayList<>();
        for (long revision = from; revision <= to; revision++)
        {
            final Map<String, KeyValue> before = byKey(history.stateAt.get(revision - 1));
            final Map<String, KeyValue> after = byKey(history.stateAt.get(revision));
            final TreeMap<String, byte[]> changed = new TreeMap<>();
            for (final Map.Entry<String, KeyValue> e : after.entrySet())
            {
                if (!Objects.equals(before.get(e.getKey()), e.getValue()))
                {
                    changed.put(e.getKey(), e.getValue().key());
                }
            }
            for (final Map.Entry<String, KeyValue> e : before.entrySet())
            {
                if (!after.containsKey(e.getKey()))
                {
                    changed.put(e.getKey(), e.getValue().key());
                }
            }
            for (final Map.Entry<String, byte[]> e : changed.entrySet())
            {
                if (filter.matches(e.getValue()))
                {
                    events.add(revision + " " + e.getKey());
                }
            }
        }
        return events;
    }

    private static void assertState(final long revision, final Map<String, KeyValue> replayed)
    {
        assertEquals(byKey(history.stateAt.get(revision)), replayed, "state at revision " + revision);
    }

    private static Map<String, KeyValue> byKey(final List<KeyValue> kvs)
    {
        final Map<String, KeyValue> map = new TreeMap<>();
        for (final KeyValue kv : kvs)
        {
            map.put(HexKey.of(kv.key()), kv);
        }
        return map;
    }

    private static byte[] bytes(final Map<String, Object> event, final String name)
    {
        final String text = (String)event.get(name);
        if (text == null)
        {
            return null;
        }
        return Boolean.TRUE.equals(event.get(name + "Base64")) ?
            Base64.getDecoder().decode(text) : text.getBytes(StandardCharsets.UTF_8);
    }
}
