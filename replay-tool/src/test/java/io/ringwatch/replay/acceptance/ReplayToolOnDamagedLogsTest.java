package io.ringwatch.replay.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.persistence.LogConfig;
import io.ringwatch.replay.ExitCodes;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12, "What was seen" item 7: {@code verify} on a truncated log printed an InternalError
 * stack trace, {@code list} exited 0 on a corrupt log, and a republish that failed left a
 * half-built target directory. Every command on a damaged log must end with one line and a
 * nonzero exit, never a stack trace; a failed republish removes what it built.
 */
class ReplayToolOnDamagedLogsTest
{
    @TempDir
    Path root;

    private Path log(final String name)
    {
        final Path dir = root.resolve(name);
        try (RingWatch engine = RingWatch.open(RingWatchConfig.builder()
            .persistence(LogConfig.builder(dir).blockSize(1 << 20).build()).snapshotEveryRevisions(0).build()))
        {
            for (int i = 0; i < 400; i++)
            {
                engine.put("/k/" + i % 50, "value " + i);
            }
        }
        return dir;
    }

    /** Issue 12 item 7: verify and list on a log cut short in the middle of its data. */
    @Test
    void verifyAndListOnATruncatedLogPrintOneLineAndExitNonzero() throws IOException
    {
        final Path dir = log("truncated");
        final Path file = queueFile(dir);
        final long end = dataEnd(file);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE))
        {
            channel.truncate(end / 2);
        }
        ToolRun.of("verify", dir.toString()).assertOneLineFailure("verify on a truncated log");
        final ToolRun list = ToolRun.of("list", dir.toString());
        list.assertNoStackTrace("list on a truncated log");
        assertTrue(list.exitCode() != 0, "list exited 0 on a truncated log: " + list);
    }

    /**
     * Issue 12 item 7: list on a log whose last revision's bytes were damaged (list reads the first
     * and last excerpts) says so: one line and the tool's exit code for corruption; verify fails in
     * one line.
     */
    @Test
    void listOnACorruptLogSaysSo() throws IOException
    {
        final Path dir = log("corrupt");
        damage(queueFile(dir), 40, 16);
        final ToolRun verify = ToolRun.of("verify", dir.toString());
        verify.assertOneLineFailure("verify on a corrupt log");
        final ToolRun list = ToolRun.of("list", dir.toString());
        list.assertOneLineFailure("list on a corrupt log");
        assertEquals(ExitCodes.CORRUPT, list.exitCode(), "list did not say the log is corrupt: " + list);
    }

    /** Issue 12 item 7: a republish from a corrupt log fails and leaves no target behind (missing or empty before). */
    @Test
    void aFailedRepublishLeavesNoHalfBuiltTarget() throws IOException
    {
        final Path dir = log("source");
        damage(queueFile(dir), 3_000, 64);
        final Path missing = root.resolve("target-new");
        final ToolRun run = ToolRun.of("republish", dir.toString(), "--into", missing.toString());
        run.assertNoStackTrace("republish from a corrupt log");
        assertTrue(run.exitCode() != 0, "republish from a corrupt log exited 0: " + run);
        assertFalse(Files.exists(missing), "a failed republish left " + missing + " behind: " + tree(missing));

        final Path empty = Files.createDirectories(root.resolve("target-empty"));
        final ToolRun again = ToolRun.of("republish", dir.toString(), "--into", empty.toString());
        assertTrue(again.exitCode() != 0, "republish from a corrupt log exited 0: " + again);
        assertEquals(List.of(), tree(empty), "a failed republish left files in the empty target");
    }

    /** Flips {@code length} bytes {@code beforeEnd} bytes before the end of the queue file's data, inside an excerpt. */
    private static void damage(final Path file, final int beforeEnd, final int length) throws IOException
    {
        final long end = dataEnd(file);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE))
        {
            final ByteBuffer bytes = ByteBuffer.allocate(length);
            final long at = end - beforeEnd;
            channel.read(bytes, at);
            for (int i = 0; i < bytes.limit(); i++)
            {
                bytes.put(i, (byte)(bytes.get(i) ^ 0x5A));
            }
            bytes.rewind();
            channel.write(bytes, at);
        }
    }

    private static Path queueFile(final Path dir) throws IOException
    {
        try (Stream<Path> walk = Files.walk(dir))
        {
            final List<Path> files = walk.filter(p -> p.toString().endsWith(".cq4")).collect(Collectors.toList());
            assertEquals(1, files.size(), "queue files: " + files);
            return files.get(0);
        }
    }

    private static long dataEnd(final Path file) throws IOException
    {
        final byte[] bytes = Files.readAllBytes(file);
        int last = bytes.length - 1;
        while (last > 0 && bytes[last] == 0)
        {
            last--;
        }
        return last + 1;
    }

    private static List<String> tree(final Path dir)
    {
        if (!Files.exists(dir))
        {
            return List.of();
        }
        try (Stream<Path> walk = Files.walk(dir))
        {
            return walk.filter(p -> !p.equals(dir)).map(Path::toString).sorted().collect(Collectors.toList());
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
