package io.ringwatch.persistence;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Recovery replays the log in batches; an excerpt damaged in the middle of a batch still fails the
 * open with the log's own typed error.
 */
class ReplayOfADamagedLogTest
{
    private static final int REVISIONS = 100;
    /** In the second batch of 32, neither its first change nor its last. */
    private static final int DAMAGED = 50;

    @TempDir
    Path dir;

    @Test
    void anExcerptThatFailsItsCrcInTheMiddleOfABatchFailsTheOpenWithLogCorruptedException() throws IOException
    {
        try (RingWatch engine = RingWatch.open(config()))
        {
            for (int i = 1; i <= REVISIONS; i++)
            {
                engine.put("key/" + i, value(i));
            }
        }
        damageValue(value(DAMAGED));

        final LogCorruptedException refused = assertThrows(LogCorruptedException.class, () -> RingWatch.open(config()).close());

        assertTrue(refused.getMessage().contains("Excerpt"), refused.getMessage());
    }

    private RingWatchConfig config()
    {
        return RingWatchConfig.builder().persistence(LogConfig.builder(dir).build()).snapshotEveryRevisions(0).build();
    }

    private static String value(final int revision)
    {
        return String.format("value-%03d-of-the-damaged-log", revision);
    }

    /** Flips one byte of the only copy of {@code text} in the queue files. */
    private void damageValue(final String text) throws IOException
    {
        final byte[] wanted = text.getBytes(StandardCharsets.US_ASCII);
        final List<Path> files;
        try (Stream<Path> paths = Files.list(dir.resolve("queue")))
        {
            files = paths.filter(p -> p.toString().endsWith(".cq4")).toList();
        }
        for (final Path file : files)
        {
            final byte[] bytes = Files.readAllBytes(file);
            final int at = indexOf(bytes, wanted);
            if (at >= 0)
            {
                assertEquals(-1, indexOf(Arrays.copyOfRange(bytes, at + 1, bytes.length), wanted), "one copy only");
                try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw"))
                {
                    raf.seek(at);
                    raf.write(bytes[at] ^ 0x01);
                }
                return;
            }
        }
        throw new AssertionError(text + " is in no queue file");
    }

    private static int indexOf(final byte[] bytes, final byte[] wanted)
    {
        outer:
        for (int i = 0; i + wanted.length <= bytes.length; i++)
        {
            for (int j = 0; j < wanted.length; j++)
            {
                if (bytes[i + j] != wanted[j])
                {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
