package io.ringwatch.engine.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.persistence.LogConfig;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12, "What was seen" item 4: a failed open rewrote another application's {@code .cq4},
 * changed a truncated log's {@code .cq4}, and every failed open rewrote a byte of
 * {@code metadata.cq4t}. Through {@link RingWatch#open}, as a user calls it: a refused open must
 * change no byte of any file and add or remove no file (SHA-256 of the whole tree before and
 * after), and must refuse with a typed error, never an {@link Error}.
 */
class RefusedOpenChangesNothingTest
{
    @TempDir
    Path root;

    /** Issue 12 item 4: another application's Chronicle queue directory. */
    @Test
    void anotherApplicationsChronicleQueueIsRefusedUnchanged()
    {
        final Path dir = root.resolve("foreign");
        try (SingleChronicleQueue queue = SingleChronicleQueueBuilder.binary(dir).build();
            ExcerptAppender appender = queue.createAppender())
        {
            for (int i = 0; i < 100; i++)
            {
                appender.writeText("another application's message " + i);
            }
        }
        assertRefusedUnchanged(dir, "another application's Chronicle queue");
    }

    /** Issue 12 item 4: a RingWatch log whose queue file was cut short in the middle of its data. */
    @Test
    void aTruncatedLogIsRefusedUnchanged() throws IOException
    {
        final Path dir = root.resolve("log");
        try (RingWatch engine = RingWatch.open(config(dir)))
        {
            for (int i = 0; i < 300; i++)
            {
                engine.put("/k/" + i, "value " + i);
            }
        }
        final List<Path> queueFiles;
        try (Stream<Path> walk = Files.walk(dir))
        {
            queueFiles = walk.filter(p -> p.toString().endsWith(".cq4")).collect(Collectors.toList());
        }
        assertEquals(1, queueFiles.size(), "one queue file: " + queueFiles);
        final Path file = queueFiles.get(0);
        final long dataEnd = lastNonZeroByte(file);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE))
        {
            channel.truncate(dataEnd / 2);
        }
        assertRefusedUnchanged(dir, "a log cut short at byte " + dataEnd / 2 + " of " + dataEnd);
    }

    /** Issue 12 item 4: a directory of unrelated files (and an unrelated file where the queue would go). */
    @Test
    void aDirectoryOfUnrelatedFilesIsRefusedUnchanged() throws IOException
    {
        final Path dir = Files.createDirectories(root.resolve("photos"));
        Files.write(dir.resolve("holiday.jpg"), new byte[] {(byte)0xFF, (byte)0xD8, 1, 2, 3});
        Files.writeString(dir.resolve("notes.txt"), "mine, not a log");
        Files.createDirectories(dir.resolve("queue"));
        Files.writeString(dir.resolve("queue").resolve("todo.txt"), "also mine");
        assertRefusedUnchanged(dir, "a directory of unrelated files");
    }

    private static RingWatchConfig config(final Path dir)
    {
        return RingWatchConfig.builder().persistence(LogConfig.builder(dir).blockSize(1 << 20).build())
            .snapshotEveryRevisions(0).build();
    }

    private void assertRefusedUnchanged(final Path dir, final String what)
    {
        final Map<String, String> before = sha256Tree(root);
        try
        {
            RingWatch.open(config(dir)).close();
            fail("the open of " + what + " succeeded");
        }
        catch (final RuntimeException refused)
        {
            System.out.println("RefusedOpenChangesNothingTest: " + what + ": " + refused);
        }
        catch (final Error error)
        {
            throw new AssertionError("the open of " + what + " failed with an Error, not a typed refusal", error);
        }
        assertEquals(before, sha256Tree(root), "the refused open of " + what + " changed a byte or a file");
    }

    private static long lastNonZeroByte(final Path file) throws IOException
    {
        final byte[] bytes = Files.readAllBytes(file);
        int last = bytes.length - 1;
        while (last > 0 && bytes[last] == 0)
        {
            last--;
        }
        assertTrue(last > 1024, "the queue file holds data");
        return last + 1;
    }

    private static Map<String, String> sha256Tree(final Path top)
    {
        final Map<String, String> hashes = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(top))
        {
            for (final Path path : (Iterable<Path>)walk::iterator)
            {
                final String name = top.relativize(path).toString();
                if (Files.isDirectory(path))
                {
                    hashes.put(name + "/", "directory");
                    continue;
                }
                final MessageDigest digest = MessageDigest.getInstance("SHA-256");
                try (InputStream in = Files.newInputStream(path))
                {
                    final byte[] buffer = new byte[1 << 16];
                    int read;
                    while ((read = in.read(buffer)) > 0)
                    {
                        digest.update(buffer, 0, read);
                    }
                }
                hashes.put(name, HexFormat.of().formatHex(digest.digest()));
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        catch (final NoSuchAlgorithmException ex)
        {
            throw new IllegalStateException(ex);
        }
        return hashes;
    }
}
