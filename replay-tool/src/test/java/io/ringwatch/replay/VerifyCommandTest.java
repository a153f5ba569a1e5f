package io.ringwatch.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VerifyCommandTest
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
    void aCleanLogVerifies()
    {
        final HistoryFixture.Run run = HistoryFixture.run("verify", history.directory.toString());

        assertEquals(ExitCodes.OK, run.exitCode(), run.err());
        assertEquals("OK: revisions 1.." + HistoryFixture.LAST + " (" + HistoryFixture.LAST + ") contiguous, every CRC valid; " +
            "snapshots valid: [" + HistoryFixture.LAST + ", " + HistoryFixture.FIRST_SESSION_END + "]", run.out().strip());
        assertEquals("", run.err());
    }

    @Test
    void aFlippedByteInAnExcerptFailsVerifyAndEveryReadThatMeetsIt() throws IOException
    {
        final Path copy = history.copyTo(temp);
        // Revision 21 put "/a/1" = "v1-session2": a value written nowhere else.
        flipFirst(copy, "v1-session2");

        final HistoryFixture.Run verify = HistoryFixture.run("verify", copy.toString());
        final HistoryFixture.Run print = HistoryFixture.run("print", copy.toString(), "--from", "15");
        final HistoryFixture.Run state = HistoryFixture.run("state", copy.toString(), "--at", "25");

        assertEquals(ExitCodes.CORRUPT, verify.exitCode(), verify.out());
        assertEquals(1, verify.err().strip().lines().count(), verify.err());
        assertTrue(verify.err().startsWith("ringwatch-replay verify: "), verify.err());
        assertTrue(verify.err().contains("fails its CRC check") && verify.err().contains("(after revision 20)"), verify.err());
        assertEquals(ExitCodes.CORRUPT, print.exitCode(), print.err());
        assertEquals(6, print.lines().size(), "revisions 15..20 were printed before the problem: " + print.out());
        assertEquals(ExitCodes.CORRUPT, state.exitCode(), state.err());
    }

    @Test
    void aSnapshotThatFailsItsCheckFailsVerify() throws IOException
    {
        final Path copy = history.copyTo(temp);
        final Path snapshot = SnapshotCatalog.file(copy, HistoryFixture.LAST);
        final byte[] bytes = Files.readAllBytes(snapshot);
        bytes[bytes.length / 2] ^= 0x01;
        Files.write(snapshot, bytes);

        final HistoryFixture.Run run = HistoryFixture.run("verify", copy.toString());

        assertEquals(ExitCodes.CORRUPT, run.exitCode(), run.out());
        assertTrue(run.err().contains("fails its CRC check") && run.err().contains(snapshot.getFileName().toString()), run.err());
    }

    @Test
    void aLogWhoseStartRetentionRemovedWithoutASnapshotCannotBeRecovered()
    {
        final Path dir = temp.resolve("no-snapshot");
        try (HandWrittenLog log = new HandWrittenLog(dir, 50, java.util.Map.of()))
        {
            log.put("k", "v");
            log.put("k", "w");
        }

        final HistoryFixture.Run run = HistoryFixture.run("verify", dir.toString());

        assertEquals(ExitCodes.CORRUPT, run.exitCode(), run.out());
        assertTrue(run.err().contains("the log starts at revision 50 but no snapshot covers"), run.err());
    }

    @Test
    void progressIsDrawnOnStderrWhenAsked()
    {
        final HistoryFixture.Run run = HistoryFixture.run("verify", history.directory.toString(), "--progress");

        assertEquals(ExitCodes.OK, run.exitCode(), run.err());
        assertTrue(run.err().contains("verify [" + "#".repeat(30) + "] 100%  30/30 revisions"), run.err());
        assertTrue(run.err().startsWith("\r") && run.err().endsWith(System.lineSeparator()), run.err());
    }

    private static void flipFirst(final Path dataDir, final String marker) throws IOException
    {
        try (Stream<Path> files = Files.list(dataDir.resolve("queue")))
        {
            for (final Path file : files.filter(f -> f.toString().endsWith(".cq4")).toList())
            {
                final byte[] bytes = Files.readAllBytes(file);
                // ISO-8859-1 maps each byte to one char, so a char index is a byte index.
                final int at = new String(bytes, StandardCharsets.ISO_8859_1).indexOf(marker);
                if (at >= 0)
                {
                    bytes[at + 2] ^= 0x20;
                    Files.write(file, bytes);
                    assertEquals(-1, new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1).indexOf(marker),
                        "the marker is written once");
                    return;
                }
            }
        }
        throw new AssertionError("marker " + marker + " not found in " + List.of(dataDir));
    }
}
