package io.ringwatch.perf.recovery;

import io.ringwatch.persistence.LogConfig;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;

import java.nio.file.Path;

/**
 * The baseline of the replay figure: Chronicle Queue itself reading every excerpt of the same revision
 * log, front to back, through a read-only queue and one tailer, touching each excerpt's first and
 * last word (no decode, no CRC, no index): the rate the log's storage allows.
 * <p>
 * Runs on the calling thread after the writing engine closed; allocates the queue.
 */
final class RawLogRead
{
    private RawLogRead()
    {
    }

    /**
     * Reads the whole queue of the log in {@code logDirectory}.
     *
     * @param logDirectory the revision log's directory (the engine's persistence directory).
     * @param expected     how many excerpts it must hold.
     * @return nanoseconds the read took.
     * @throws IllegalStateException if it holds a different number of excerpts.
     */
    static long timeRead(final Path logDirectory, final long expected)
    {
        final LogConfig config = LogConfig.builder(logDirectory).build();
        long excerpts = 0;
        long touched = 0;
        final long start = System.nanoTime();
        try (SingleChronicleQueue queue = SingleChronicleQueueBuilder.binary(logDirectory.resolve("queue"))
            .rollCycle(config.rollCycle())
            .blockSize(config.blockSize())
            .readOnly(true)
            .build();
            ExcerptTailer tailer = queue.createTailer())
        {
            while (true)
            {
                try (DocumentContext document = tailer.readingDocument())
                {
                    if (!document.isPresent())
                    {
                        break;
                    }
                    final Bytes<?> bytes = document.wire().bytes();
                    final long from = bytes.readPosition();
                    final long to = bytes.readLimit();
                    touched += bytes.readLong(from) + bytes.readLong(to - Long.BYTES);
                    excerpts++;
                }
            }
        }
        final long nanos = System.nanoTime() - start;
        if (excerpts != expected)
        {
            throw new IllegalStateException("the raw read found " + excerpts + " excerpts (words " + touched +
                "), the log holds " + expected + " revisions");
        }
        return nanos;
    }
}
