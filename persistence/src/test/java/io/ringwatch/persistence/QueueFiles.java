package io.ringwatch.persistence;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;

/**
 * Test helpers that locate excerpts on disk and damage them the way a crash or bad media would.
 */
final class QueueFiles
{
    /** Where an excerpt lies: its file and the byte range of its payload. */
    record Location(Path file, long start, long end)
    {
    }

    private QueueFiles()
    {
    }

    /**
     * Finds the payload of the excerpt holding {@code revision}, with the log closed.
     */
    static Location locate(final Path dataDir, final long revision)
    {
        try (SingleChronicleQueue queue = SingleChronicleQueueBuilder.binary(dataDir.resolve(LogDirectory.QUEUE))
            .readOnly(true).build();
            ExcerptTailer tailer = queue.createTailer())
        {
            while (true)
            {
                try (DocumentContext dc = tailer.readingDocument())
                {
                    if (!dc.isPresent())
                    {
                        throw new IllegalStateException("revision " + revision + " not found");
                    }
                    final Bytes<?> bytes = dc.wire().bytes();
                    if (bytes.readLong(bytes.readPosition() + ExcerptLayout.REVISION_OFFSET) == revision)
                    {
                        return new Location(tailer.currentFile().toPath(), bytes.readPosition(), bytes.readLimit());
                    }
                }
            }
        }
    }

    static void write(final Path file, final long position, final byte[] bytes)
    {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE))
        {
            channel.write(ByteBuffer.wrap(bytes), position);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    static void flipByte(final Path file, final long position)
    {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE))
        {
            final ByteBuffer one = ByteBuffer.allocate(1);
            channel.read(one, position);
            one.put(0, (byte)(one.get(0) ^ 0x5A)).rewind();
            channel.write(one, position);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    static byte[] intLittleEndian(final int value)
    {
        return ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(value).array();
    }

    /**
     * Every file under {@code root} with a hash of its content, to prove a failed open changed nothing.
     */
    static Map<String, Integer> tree(final Path root)
    {
        final Map<String, Integer> tree = new TreeMap<>();
        if (!Files.exists(root))
        {
            return tree;
        }
        try (Stream<Path> paths = Files.walk(root))
        {
            paths.forEach(path ->
            {
                try
                {
                    tree.put(root.relativize(path).toString(),
                        Files.isRegularFile(path) ? Arrays.hashCode(Files.readAllBytes(path)) : -1);
                }
                catch (final IOException ex)
                {
                    throw new UncheckedIOException(ex);
                }
            });
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        return tree;
    }
}
