package io.ringwatch.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every command on a damaged log ends with ONE line on stderr naming the problem and a nonzero
 * exit code, never a stack trace; a republish that fails removes what it built.
 */
class CorruptLogCommandsTest
{
    private static final List<List<String>> READING_COMMANDS = List.of(
        List.of("verify"), List.of("list"), List.of("print"), List.of("state", "--at", "25"), List.of("print", "--from", "25"));

    @TempDir
    static Path temp;

    private static HistoryFixture history;

    @BeforeAll
    static void writeHistory()
    {
        history = new HistoryFixture(temp.resolve("log"));
    }

    private static void assertOneLineFailure(final HistoryFixture.Run run, final int exitCode, final String what)
    {
        assertEquals(exitCode, run.exitCode(), what + ": " + run.err());
        assertEquals(1, run.err().strip().lines().count(), what + " printed more than one line: " + run.err());
        assertTrue(run.err().startsWith("ringwatch-replay "), what + ": " + run.err());
        assertFalse(run.err().contains("\tat ") || run.err().contains("Exception in"), what + " printed a stack trace: " + run.err());
    }

    private static void assertEveryCommandFails(final Path dir, final String damage)
    {
        for (final List<String> command : READING_COMMANDS)
        {
            final String[] args = Stream.concat(Stream.of(command.get(0), dir.toString()), command.stream().skip(1))
                .toArray(String[]::new);
            final HistoryFixture.Run run = HistoryFixture.run(args);
            assertOneLineFailure(run, ExitCodes.CORRUPT, String.join(" ", command) + " on " + damage);
        }
    }

    @Test
    void aQueueFileCutShortFailsEveryCommandWithOneLine() throws IOException
    {
        final Path copy = history.copyTo(temp);
        truncateAt(copy, "v1-session2");
        assertEveryCommandFails(copy, "a queue file cut short");
    }

    @Test
    void aQueueFileCutToAFewBytesFailsEveryCommandWithOneLine() throws IOException
    {
        final Path copy = history.copyTo(temp);
        try (FileChannel channel = FileChannel.open(queueFile(copy), StandardOpenOption.WRITE))
        {
            channel.truncate(100);
        }
        assertEveryCommandFails(copy, "a queue file cut to 100 bytes");
    }

    @Test
    void aLastExcerptThatFailsItsCrcMakesListSayCorrupt() throws IOException
    {
        final Path copy = history.copyTo(temp);
        final byte[] bytes = Files.readAllBytes(queueFile(copy));
        final int end = lastNonZero(bytes);
        bytes[end - 2] ^= 0x01;
        Files.write(queueFile(copy), bytes);
        final HistoryFixture.Run list = HistoryFixture.run("list", copy.toString());
        assertOneLineFailure(list, ExitCodes.CORRUPT, "list");
        assertTrue(list.err().contains("CRC"), list.err());
        assertOneLineFailure(HistoryFixture.run("verify", copy.toString()), ExitCodes.CORRUPT, "verify");
    }

    @Test
    void aTornTailIsReportedByListAndVerifyAsAnIncompleteLastExcerpt() throws IOException
    {
        final Path copy = history.copyTo(temp);
        final byte[] bytes = Files.readAllBytes(queueFile(copy));
        final int at = (lastNonZero(bytes) + 4) & ~3;
        // What kill -9 inside a write leaves: a header still marked not-complete, then a partial payload.
        ByteBuffer.wrap(bytes, at, 4).order(ByteOrder.LITTLE_ENDIAN).putInt(0x80000000 | 200);
        for (int i = at + 4; i < at + 120; i++)
        {
            bytes[i] = 0x5A;
        }
        Files.write(queueFile(copy), bytes);
        final HistoryFixture.Run list = HistoryFixture.run("list", copy.toString());
        assertEquals(ExitCodes.OK, list.exitCode(), list.err());
        assertTrue(list.out().contains("tail: incomplete last excerpt: a writer died inside it"), list.out());
        final HistoryFixture.Run verify = HistoryFixture.run("verify", copy.toString());
        assertEquals(ExitCodes.OK, verify.exitCode(), verify.err());
        assertTrue(verify.out().contains("note: incomplete last excerpt"), verify.out());
        assertTrue(HistoryFixture.run("list", history.directory.toString()).out().contains("tail: complete"));
    }

    @Test
    void aRepublishThatFailsRemovesTheTargetItCreated() throws IOException
    {
        final Path copy = history.copyTo(temp);
        flip(copy, "v1-session2");
        final Path target = temp.resolve("republish-created");
        final HistoryFixture.Run run = HistoryFixture.run("republish", copy.toString(), "--into", target.toString());
        assertOneLineFailure(run, ExitCodes.CORRUPT, "republish from a corrupt log");
        assertFalse(Files.exists(target), "the half-built target is left behind");
    }

    @Test
    void aRepublishThatFailsEmptiesTheEmptyTargetItWasGiven() throws IOException
    {
        final Path copy = history.copyTo(temp);
        flip(copy, "v1-session2");
        final Path target = Files.createDirectories(temp.resolve("republish-empty"));
        final HistoryFixture.Run run = HistoryFixture.run("republish", copy.toString(), "--into", target.toString());
        assertOneLineFailure(run, ExitCodes.CORRUPT, "republish from a corrupt log");
        assertTrue(Files.isDirectory(target), "the directory the user made stays");
        try (Stream<Path> left = Files.list(target))
        {
            assertEquals(List.of(), left.toList(), "what the republish built is removed");
        }
    }

    private static Path queueFile(final Path dataDir) throws IOException
    {
        try (Stream<Path> files = Files.list(dataDir.resolve("queue")))
        {
            final List<Path> cycles = files.filter(f -> f.toString().endsWith(".cq4")).sorted().toList();
            assertEquals(1, cycles.size(), "the fixture writes one cycle file: " + cycles);
            return cycles.get(0);
        }
    }

    private static int lastNonZero(final byte[] bytes)
    {
        int end = bytes.length - 1;
        while (bytes[end] == 0)
        {
            end--;
        }
        return end;
    }

    private static void truncateAt(final Path dataDir, final String marker) throws IOException
    {
        final Path file = queueFile(dataDir);
        final int at = offsetOf(Files.readAllBytes(file), marker);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE))
        {
            channel.truncate(at);
        }
    }

    private static void flip(final Path dataDir, final String marker) throws IOException
    {
        final Path file = queueFile(dataDir);
        final byte[] bytes = Files.readAllBytes(file);
        final int at = offsetOf(bytes, marker);
        bytes[at + 2] ^= 0x20;
        Files.write(file, bytes);
    }

    /** The byte offset of an ASCII marker (ISO-8859-1 maps each byte to one char); it must be there. */
    private static int offsetOf(final byte[] bytes, final String marker)
    {
        final int at = new String(bytes, StandardCharsets.ISO_8859_1).indexOf(marker);
        if (at < 0)
        {
            throw new UncheckedIOException(new IOException("marker not found"));
        }
        return at;
    }
}
