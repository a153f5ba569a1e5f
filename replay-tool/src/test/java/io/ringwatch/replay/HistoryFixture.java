package io.ringwatch.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.Txn;
import io.ringwatch.persistence.LogConfig;
import picocli.CommandLine;

/**
 * A real revision log written by a persistent engine in two sessions (each close leaves a
 * snapshot), with the engine's whole state recorded at every revision, and a runner for the tool.
 * <p>
 * Session 1 (revisions 1..{@link #FIRST_SESSION_END}): puts, updates, a delete, a txn of puts and a
 * delete, a deleteRange over a prefix, a key and value that are not UTF-8, a value with quotes.
 * Session 2 (up to {@link #LAST}): updates of keys the snapshot holds, deletes, re-creations, a
 * txn of puts and a delete.
 */
final class HistoryFixture
{
    static final long FIRST_SESSION_END = 20;
    static final long LAST = 30;
    static final byte[] BINARY_KEY = {'/', 'b', 'i', 'n', '/', (byte)0xFF, 0x01};
    static final byte[] BINARY_VALUE = {(byte)0xC3, 0x28, 0x00, 0x7F};

    final Path directory;
    /** The engine's full state after each revision, revision 0 being empty. */
    final Map<Long, List<KeyValue>> stateAt = new TreeMap<>();

    private RingWatch engine;

    HistoryFixture(final Path directory)
    {
        this.directory = directory;
        stateAt.put(0L, List.of());
        firstSession();
        secondSession();
    }

    /** The result of one run of the tool. */
    record Run(int exitCode, String out, String err)
    {
        List<String> lines()
        {
            return out.isEmpty() ? List.of() : List.of(out.split("\n"));
        }
    }

    /**
     * Runs {@code ringwatch-replay args} with captured output.
     */
    static Run run(final String... args)
    {
        // The tool's own stdout writer over memory, as main() sets it up over the process's stdout.
        final java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        final StringWriter err = new StringWriter();
        final CommandLine commandLine = ReplayMain.commandLine();
        final PrintWriter toolOut = new ToolOut(out, 1 << 12);
        commandLine.setOut(toolOut);
        commandLine.setErr(new PrintWriter(err, true));
        final int code = commandLine.execute(args);
        toolOut.flush();
        return new Run(code, out.toString(java.nio.charset.StandardCharsets.UTF_8).replace("\r\n", "\n"), err.toString());
    }

    /**
     * A copy of the log's directory under {@code parent}, for tests that damage it.
     */
    Path copyTo(final Path parent)
    {
        final Path target = parent.resolve("copy-" + System.nanoTime());
        try (Stream<Path> walk = Files.walk(directory))
        {
            for (final Path source : (Iterable<Path>)walk::iterator)
            {
                Files.copy(source, target.resolve(directory.relativize(source).toString()));
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        return target;
    }

    static RingWatch openEngine(final Path directory)
    {
        // Small mapping blocks keep the cycle files small, so copying and scanning them stays cheap.
        return RingWatch.open(RingWatchConfig.builder()
            .persistence(LogConfig.builder(directory).blockSize(1 << 20).build())
            .build());
    }

    private void firstSession()
    {
        engine = openEngine(directory);
        try
        {
            for (int i = 1; i <= 5; i++)
            {
                record(engine.put("/a/" + i, "v" + i).revision());
            }
            record(engine.put("/a/2", "v2-updated").revision());
            record(engine.delete(KeyRange.key("/a/3")).revision());
            record(engine.txn(Txn.of(List.of(), List.of(Op.put("/b/1", "b1"), Op.put("/b/2", "b2"), Op.put("/b/3", "b3"),
                Op.delete("/a/4")), List.of())).revision());
            record(engine.put("/b/4", "b4").revision());
            record(engine.delete(KeyRange.prefix("/b/")).revision());
            record(engine.put(BINARY_KEY, BINARY_VALUE).revision());
            record(engine.put("/q", "say \"hi\"\\ there\nnext line").revision());
            for (int i = 13; i <= FIRST_SESSION_END; i++)
            {
                record(engine.put("/c/" + (i % 3), "c" + i).revision());
            }
        }
        finally
        {
            engine.close();
        }
    }

    private void secondSession()
    {
        engine = openEngine(directory);
        try
        {
            assertEquals(FIRST_SESSION_END, engine.currentRevision(), "recovered revision");
            record(engine.put("/a/1", "v1-session2").revision());
            record(engine.delete(KeyRange.key("/a/5")).revision());
            record(engine.put("/a/5", "v5-again").revision());
            record(engine.txn(Txn.of(List.of(), List.of(Op.put("/d", "d1"), Op.put("/a/2", "v2-txn"), Op.delete("/c/0")),
                List.of())).revision());
            record(engine.delete(KeyRange.prefix("/c/")).revision());
            for (long revision = engine.currentRevision() + 1; revision <= LAST; revision++)
            {
                record(engine.put("/e/" + revision, "e" + revision).revision());
            }
        }
        finally
        {
            engine.close();
        }
    }

    private void record(final long revision)
    {
        final List<KeyValue> kvs = engine.range(KeyRange.all(), 0).kvs();
        assertEquals(stateAt.size(), revision, "each write makes the next revision");
        stateAt.put(revision, new ArrayList<>(kvs));
    }

    /**
     * The expected text-format lines of {@code state} for the recorded state at {@code revision}.
     */
    List<String> expectedStateLines(final long revision, final KeyFilter filter)
    {
        final List<String> lines = new ArrayList<>();
        for (final KeyValue kv : stateAt.get(revision))
        {
            if (filter.matches(kv.key()))
            {
                lines.add(OutputFormat.TEXT.entry(new KeyState(kv.key(), kv.value(), kv.createRevision(), kv.modRevision(),
                    kv.version())));
            }
        }
        return lines;
    }

    static String utf8(final byte[] bytes)
    {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
