package io.ringwatch.persistence;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.internal.history.ChangeByChangeReplay;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Recovery replays the log in batches; an excerpt damaged in the middle of a batch still fails the
 * open with the log's own typed error, thrown on the opening thread although the log is read on
 * recovery's reader thread, and that thread has ended when the open fails.
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
        assertFalse(ChangeByChangeReplay.readerThreadAlive(), "the recovery reader thread ended with the open");
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
        final List<Path> files;
        try (Stream<Path> paths = Files.list(dir.resolve("queue")))
        {
            files = paths.filter(p -> p.toString().endsWith(".cq4")).toList();
        }
        for (final Path file : files)
        {
            final byte[] bytes = Files.readAllBytes(file);
            // ISO-8859-1 maps each byte to one char, so a char index is a byte index.
            final String contents = new String(bytes, StandardCharsets.ISO_8859_1);
            final int at = contents.indexOf(text);
            if (at >= 0)
            {
                assertEquals(-1, contents.indexOf(text, at + 1), "one copy only");
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
}
