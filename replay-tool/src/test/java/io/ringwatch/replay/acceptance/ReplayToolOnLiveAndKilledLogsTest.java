package io.ringwatch.replay.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.internal.durable.ChildJvm;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.kv.RangeResult;
import io.ringwatch.replay.ExitCodes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The replay tool on the logs users point it at: one a running engine is writing (the tool takes
 * no lock: every command must work beside the writer and agree with the engine), and one a kill -9
 * cut, possibly inside an excerpt, before anything reopened it (list, verify, print, state and
 * republish must each succeed, agree on the last complete revision, hold every acknowledged write,
 * change no byte of the directory, and agree with the state the engine then recovers).
 */
class ReplayToolOnLiveAndKilledLogsTest
{
    private static final Pattern REVISION = Pattern.compile("\"revision\":(\\d+)");
    private static final Pattern TYPE = Pattern.compile("\"type\":\"([A-Z_]+)\"");
    private static final Pattern KEY_VALUE = Pattern.compile("\"key\":\"([^\"]*)\",\"value\":\"([^\"]*)\"");
    private static final Pattern LAST = Pattern.compile("\"lastRevision\":(\\d+)");

    @TempDir
    Path temp;

    @Test
    void everyCommandAgreesOnALogCutByKillNine() throws Exception
    {
        final long seed = Long.getLong("ringwatch.seed", System.nanoTime());
        final String context = "seed " + seed;
        final Path dir = temp.resolve("data");
        final Path errors = Files.createTempFile(temp, "killed-writer", ".err");
        final Process child = ChildJvm.start(ProcessBuilder.Redirect.to(errors.toFile()), KilledWriter.class, dir.toString(),
            Long.toString(seed));
        final Set<Long> acked = new HashSet<>();
        final long[] acks = ChildJvm.killAfterAcks(child, 2_000 + new Random(seed).nextInt(2_000), line ->
        {
            if (line.startsWith("ack "))
            {
                acked.add(Long.parseLong(line.substring(4)));
            }
        });
        assertTrue(acks[0] > 0, () -> context + ": the child acknowledged nothing: " + read(errors));
        final String before = digest(dir);

        final ToolRun list = ToolRun.of("list", dir.toString(), "--format", "json");
        assertEquals(ExitCodes.OK, list.exitCode(), context + ": " + list);
        final long last = number(LAST, list.out());
        assertTrue(last >= acks[1], context + ": list's last revision " + last + " is before the acknowledged " + acks[1]);

        final ToolRun verify = ToolRun.of("verify", dir.toString(), "--format", "json");
        assertEquals(ExitCodes.OK, verify.exitCode(), context + ": " + verify);
        assertEquals(last, number(LAST, verify.out()), context + ": verify's last revision against list's");

        final ToolRun print = ToolRun.of("print", dir.toString(), "--format", "json");
        assertEquals(ExitCodes.OK, print.exitCode(), context + ": " + print.err());
        final Set<Long> printed = eventRevisions(print.out());
        assertEquals(last, printed.stream().mapToLong(Long::longValue).max().orElse(0), context + ": print's last revision");
        for (final long revision : acked)
        {
            assertTrue(printed.contains(revision), context + ": acknowledged revision " + revision + " not printed");
        }

        final ToolRun state = ToolRun.of("state", dir.toString(), "--at", Long.toString(last), "--format", "json");
        assertEquals(ExitCodes.OK, state.exitCode(), context + ": " + state.err());
        final Map<String, String> stateAtLast = keyValues(state.out());

        final Path copy = temp.resolve("copy");
        final ToolRun republish = ToolRun.of("republish", dir.toString(), "--into", copy.toString(), "--format", "json");
        assertEquals(ExitCodes.OK, republish.exitCode(), context + ": " + republish.err());

        assertEquals(before, digest(dir), context + ": the tool changed the directory");
        try (RingWatch recovered = RingWatch.open(KilledWriter.config(dir, new AtomicLong(System.currentTimeMillis()))))
        {
            assertEquals(stateAtLast, keyValues(recovered.range(KeyRange.all(), 0)), context + ": state --at " + last
                + " against the recovered engine");
        }
        try (RingWatch republished = RingWatch.open(KilledWriter.config(copy, new AtomicLong(System.currentTimeMillis()))))
        {
            assertEquals(last, republished.currentRevision(), context + ": the republished log's last revision");
            assertEquals(stateAtLast, keyValues(republished.range(KeyRange.all(), 0)), context + ": the republished state");
        }
        Files.delete(errors);
    }

    @Test
    void everyCommandAgreesWithAnEngineWritingBesideIt() throws Exception
    {
        final Path dir = temp.resolve("live");
        final AtomicLong clock = new AtomicLong(System.currentTimeMillis());
        try (RingWatch engine = RingWatch.open(KilledWriter.config(dir, clock)))
        {
            final AtomicBoolean writing = new AtomicBoolean(true);
            final AtomicLong acked = new AtomicLong();
            final AtomicReference<Throwable> failed = new AtomicReference<>();
            final Thread writer = new Thread(() ->
            {
                try
                {
                    final Random random = new Random(1);
                    for (long n = 1; writing.get(); n++)
                    {
                        final long revision = random.nextInt(20) == 0
                            ? engine.delete(KeyRange.prefix("/k/1")).revision()
                            : engine.put("/k/" + random.nextInt(KilledWriter.KEYS), "v" + n + "x".repeat(random.nextInt(2_000))).revision();
                        acked.accumulateAndGet(revision, Math::max);
                        if (n % KilledWriter.ROLL_EVERY == 0)
                        {
                            clock.addAndGet(1_000);
                        }
                    }
                }
                catch (final Throwable t)
                {
                    failed.set(t);
                }
            }, "live-writer");
            writer.start();
            try
            {
                // A log with no revision yet has nothing to print: the first round waits for one
                // (on a fast machine the tool's first list could otherwise beat the writer's first put).
                final long patience = System.nanoTime() + 60_000_000_000L;
                while (acked.get() == 0 && failed.get() == null && System.nanoTime() < patience)
                {
                    Thread.sleep(1);
                }
                assertTrue(acked.get() > 0, "the writer wrote nothing in 60 s: " + failed.get());
                final long end = System.nanoTime() + 8_000_000_000L;
                int rounds = 0;
                while (System.nanoTime() < end || rounds < 3)
                {
                    rounds++;
                    final long before = acked.get();
                    final ToolRun list = ToolRun.of("list", dir.toString(), "--format", "json");
                    assertEquals(ExitCodes.OK, list.exitCode(), "round " + rounds + ": " + list);
                    final long last = number(LAST, list.out());
                    assertTrue(last >= before, "round " + rounds + ": list's last " + last + " is before the acknowledged " + before);

                    final long from = Math.max(1, last - 300);
                    final ToolRun print = ToolRun.of("print", dir.toString(), "--from", Long.toString(from), "--to",
                        Long.toString(last), "--format", "json");
                    assertEquals(ExitCodes.OK, print.exitCode(), "round " + rounds + ": " + print.err());
                    final Set<Long> printed = eventRevisions(print.out());
                    final Set<Long> expected = new HashSet<>();
                    for (long r = from; r <= last; r++)
                    {
                        expected.add(r);
                    }
                    assertEquals(expected, printed, "round " + rounds + ": print --from " + from + " --to " + last);

                    final ToolRun state = ToolRun.of("state", dir.toString(), "--at", Long.toString(last), "--format", "json");
                    assertEquals(ExitCodes.OK, state.exitCode(), "round " + rounds + ": " + state.err());
                    assertEquals(keyValues(engine.range(KeyRange.all(), 0, last)), keyValues(state.out()),
                        "round " + rounds + ": state --at " + last + " against the engine's read at that revision");

                    final ToolRun verify = ToolRun.of("verify", dir.toString(), "--format", "json");
                    assertEquals(ExitCodes.OK, verify.exitCode(), "round " + rounds + ": " + verify);
                    assertTrue(number(LAST, verify.out()) >= last, "round " + rounds + ": verify " + verify.out());
                }
            }
            finally
            {
                writing.set(false);
                writer.join();
            }
            assertEquals(null, failed.get(), "the writer failed");
        }
    }

    private static long number(final Pattern pattern, final String json)
    {
        final Matcher m = pattern.matcher(json);
        assertTrue(m.find(), "no " + pattern + " in " + json);
        return Long.parseLong(m.group(1));
    }

    /** The revisions of print's PUT and DELETE lines (not its lease lines). */
    private static Set<Long> eventRevisions(final String jsonLines)
    {
        final Set<Long> revisions = new HashSet<>();
        for (final String line : jsonLines.split("\n"))
        {
            final Matcher type = TYPE.matcher(line);
            if (type.find() && (type.group(1).equals("PUT") || type.group(1).equals("DELETE")))
            {
                revisions.add(number(REVISION, line));
            }
        }
        return revisions;
    }

    /** Key to value of state's key lines. */
    private static Map<String, String> keyValues(final String jsonLines)
    {
        final Map<String, String> kvs = new TreeMap<>();
        for (final String line : jsonLines.split("\n"))
        {
            final Matcher m = KEY_VALUE.matcher(line);
            if (m.find())
            {
                kvs.put(m.group(1), m.group(2));
            }
        }
        return kvs;
    }

    private static Map<String, String> keyValues(final RangeResult range)
    {
        assertTrue(!range.more());
        final Map<String, String> kvs = new TreeMap<>();
        for (final KeyValue kv : range.kvs())
        {
            kvs.put(kv.keyAsString(), kv.valueAsString());
        }
        return kvs;
    }

    /** A digest of every file's path and bytes under {@code dir}. */
    private static String digest(final Path dir) throws Exception
    {
        final MessageDigest sha = MessageDigest.getInstance("SHA-256");
        final List<Path> files = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(dir))
        {
            walk.filter(Files::isRegularFile).sorted().forEach(files::add);
        }
        for (final Path file : files)
        {
            sha.update(dir.relativize(file).toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
            sha.update(Files.readAllBytes(file));
        }
        return HexFormat.of().formatHex(sha.digest());
    }

    private static String read(final Path file)
    {
        try
        {
            return Files.readString(file);
        }
        catch (final IOException e)
        {
            return e.toString();
        }
    }
}
