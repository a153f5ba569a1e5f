package io.ringwatch.persistence;

import static io.ringwatch.persistence.ExcerptLayout.CHANGE_COUNT_OFFSET;
import static io.ringwatch.persistence.ExcerptLayout.CRC_OFFSET;
import static io.ringwatch.persistence.ExcerptLayout.FORMAT_VERSION;
import static io.ringwatch.persistence.ExcerptLayout.HEADER_LENGTH;
import static io.ringwatch.persistence.ExcerptLayout.KIND_OFFSET;
import static io.ringwatch.persistence.ExcerptLayout.KIND_VOID;
import static io.ringwatch.persistence.ExcerptLayout.REVISION_OFFSET;
import static io.ringwatch.persistence.ExcerptLayout.VERSION_OFFSET;
import static java.nio.ByteOrder.LITTLE_ENDIAN;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.TailerDirection;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;

import org.agrona.ExpandableDirectByteBuffer;

/**
 * Drops a torn last excerpt when a log is opened for writing, before any appender exists:
 * <ul>
 * <li>a Chronicle header left not-complete by a writer killed mid-write, after the last complete
 *     excerpt: its bytes are zeroed, so the next append starts on clean space (Chronicle would
 *     otherwise overwrite only the header and could leave stale bytes past a shorter excerpt);</li>
 * <li>a complete last excerpt whose CRC fails (a crash lost some of its pages): rewritten in place
 *     as a VOID excerpt of the same length, which readers skip; it keeps its queue index, so the
 *     Chronicle index and sequence numbers stay consistent.</li>
 * </ul>
 * Package-private; runs on the opening thread through a plain {@link FileChannel} (coherent with
 * the queue's mappings on Linux).
 */
final class TornTailRepair
{
    /** Chronicle's header bits: see {@code net.openhft.chronicle.wire.Wires}. */
    private static final int NOT_COMPLETE = 0x80000000;
    private static final int END_OF_DATA = 0xC0000000;

    private TornTailRepair()
    {
    }

    /**
     * Repairs the tail of {@code queue}.
     *
     * @param maxExcerptBytes the most bytes a torn excerpt can have written past its header.
     * @return how many torn excerpts were dropped (0 or 1; 2 if both cases met).
     */
    static int repair(final SingleChronicleQueue queue, final int maxExcerptBytes)
    {
        int dropped = 0;
        try (ExcerptTailer tailer = queue.createTailer())
        {
            tailer.direction(TailerDirection.BACKWARD).toEnd();
            final long start;
            final long end;
            final File file;
            final ExpandableDirectByteBuffer copy = new ExpandableDirectByteBuffer(1024);
            try (DocumentContext dc = tailer.readingDocument())
            {
                if (!dc.isPresent())
                {
                    return 0;
                }
                final Bytes<?> bytes = dc.wire().bytes();
                start = bytes.readPosition();
                end = bytes.readLimit();
                file = tailer.currentFile();
                copy.checkLimit((int)(end - start));
                bytes.unsafeRead(copy.addressOffset(), (int)(end - start));
            }
            try (FileChannel channel = FileChannel.open(file.toPath(), StandardOpenOption.READ, StandardOpenOption.WRITE))
            {
                final int length = (int)(end - start);
                final boolean sound = isSound(copy, length);
                if (!sound && length < HEADER_LENGTH)
                {
                    // Refused before any byte is written.
                    throw new LogCorruptedException("The last excerpt of " + file + " is too short to be dropped safely");
                }
                if (zeroIncompleteHeader(channel, end, maxExcerptBytes))
                {
                    dropped++;
                }
                if (!sound)
                {
                    writeVoid(channel, start, length, previousRevision(tailer));
                    dropped++;
                }
                channel.force(true);
            }
        }
        catch (final IOException ex)
        {
            throw new LogWriteException("Cannot repair the torn tail of " + queue.file() + ": " + ex, ex);
        }
        return dropped;
    }

    private static boolean isSound(final ExpandableDirectByteBuffer copy, final int length)
    {
        return length >= HEADER_LENGTH && copy.getByte(VERSION_OFFSET) >= 1 &&
            copy.getInt(CRC_OFFSET, LITTLE_ENDIAN) == ExcerptLayout.crc(new CRC32C(), copy, length);
    }

    /**
     * The revision field of the excerpt before the torn one (the tailer reads backwards), or 0.
     */
    private static long previousRevision(final ExcerptTailer tailer)
    {
        try (DocumentContext dc = tailer.readingDocument())
        {
            if (!dc.isPresent() || dc.wire().bytes().readRemaining() < HEADER_LENGTH)
            {
                return 0;
            }
            final Bytes<?> bytes = dc.wire().bytes();
            return bytes.readLong(bytes.readPosition() + REVISION_OFFSET);
        }
    }

    private static void writeVoid(final FileChannel channel, final long start, final int length, final long revision)
        throws IOException
    {
        final ExpandableDirectByteBuffer excerpt = new ExpandableDirectByteBuffer(length);
        excerpt.setMemory(0, length, (byte)0);
        excerpt.putByte(VERSION_OFFSET, FORMAT_VERSION);
        excerpt.putByte(KIND_OFFSET, KIND_VOID);
        excerpt.putInt(CHANGE_COUNT_OFFSET, 0, LITTLE_ENDIAN);
        excerpt.putLong(REVISION_OFFSET, revision, LITTLE_ENDIAN);
        excerpt.putInt(CRC_OFFSET, ExcerptLayout.crc(new CRC32C(), excerpt, length), LITTLE_ENDIAN);
        final ByteBuffer bytes = excerpt.byteBuffer();
        bytes.limit(length).position(0);
        writeFully(channel, bytes, start);
    }

    /**
     * Zeroes a not-complete header at {@code end} (or at the next 4-byte boundary) and every byte a
     * torn write could have left after it.
     */
    private static boolean zeroIncompleteHeader(final FileChannel channel, final long end, final int maxExcerptBytes)
        throws IOException
    {
        final ByteBuffer header = ByteBuffer.allocate(4).order(LITTLE_ENDIAN);
        for (final long at : new long[]{end, (end + 3) & ~3L})
        {
            header.clear();
            if (channel.read(header, at) < 4)
            {
                return false;
            }
            final int value = header.getInt(0);
            if (value != 0 && value != END_OF_DATA && (value & NOT_COMPLETE) != 0)
            {
                final long length = Math.min(channel.size() - at, 8L + maxExcerptBytes);
                final int chunk = (int)Math.min(length, 65536);
                final ByteBuffer read = ByteBuffer.allocate(chunk);
                final ByteBuffer zeros = ByteBuffer.allocate(chunk);
                for (long done = 0; done < length; done += chunk)
                {
                    final int size = (int)Math.min(chunk, length - done);
                    read.clear().limit(size);
                    channel.read(read, at + done);
                    // Only chunks holding torn bytes are rewritten: untouched space stays sparse.
                    if (!isZero(read.array(), size))
                    {
                        zeros.clear().limit(size);
                        writeFully(channel, zeros, at + done);
                    }
                }
                return true;
            }
        }
        return false;
    }

    private static boolean isZero(final byte[] bytes, final int length)
    {
        for (int i = 0; i < length; i++)
        {
            if (bytes[i] != 0)
            {
                return false;
            }
        }
        return true;
    }

    private static int writeFully(final FileChannel channel, final ByteBuffer bytes, final long position) throws IOException
    {
        int written = 0;
        while (bytes.hasRemaining())
        {
            written += channel.write(bytes, position + written);
        }
        return written;
    }
}
