package io.ringwatch.persistence;

import static java.nio.ByteOrder.LITTLE_ENDIAN;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Walks the Chronicle document headers of one queue file through plain reads (never a mapping, so
 * a file cut short cannot fault): each header is a little-endian int, 0 where nothing is written
 * yet, the end-of-data mark after the file's last document, else a length with a not-complete bit
 * set while a writer is inside it. Package-private; allocates one small buffer per walk.
 */
final class QueueFileWalk
{
    /** How a walk ended. */
    enum End
    {
        /** An empty header: the position the next document goes to. */
        FREE,
        /** The end-of-data mark: the file is finished. */
        FINISHED,
        /** A header left not-complete by a writer that died inside it: a torn tail. */
        TORN,
        /** A document runs past the end of the file, or the file ends without a free header. */
        CUT_SHORT
    }

    static final int END_OF_DATA = 0xC0000000;
    static final int NOT_COMPLETE = 0x80000000;
    private static final int LENGTH_MASK = 0x3FFFFFFF;

    private End end;
    private long position;

    /**
     * Walks from {@code from} (a header position or the end of a document) to the first header that
     * is not a complete document.
     *
     * @param file the queue file.
     * @param from where to start.
     * @return this walk, holding {@link #end()} and {@link #position()}.
     * @throws IOException if the file cannot be read.
     */
    QueueFileWalk walk(final Path file, final long from) throws IOException
    {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ))
        {
            final ByteBuffer header = ByteBuffer.allocate(4).order(LITTLE_ENDIAN);
            final long size = channel.size();
            long at = from;
            while (true)
            {
                if ((at & 3) != 0 && isTorn(channel, header, at))
                {
                    // What TornTailRepair also accepts: a torn header right at a document's end.
                    return result(End.TORN, at);
                }
                // Chronicle pads every document so the next header starts on a 4-byte boundary.
                at = (at + 3) & ~3L;
                if (at + 4 > size)
                {
                    return result(End.CUT_SHORT, at);
                }
                header.clear();
                channel.read(header, at);
                final int value = header.getInt(0);
                if (value == 0)
                {
                    return result(End.FREE, at);
                }
                else if (value == END_OF_DATA)
                {
                    return result(End.FINISHED, at);
                }
                else if ((value & NOT_COMPLETE) != 0)
                {
                    return result(End.TORN, at);
                }
                else
                {
                    at += 4 + (value & LENGTH_MASK);
                    if (at > size)
                    {
                        return result(End.CUT_SHORT, at);
                    }
                }
            }
        }
    }

    /**
     * Whether a queue file's first header, its store header, is marked not-complete: what
     * {@code walk(file, 0)} reports as {@link End#TORN} at position 0, found by reading that one
     * header rather than walking every document after it (a walk of a log's last file read four
     * bytes per excerpt, millions of reads on each open of a long log).
     *
     * @param file the queue file.
     * @return true if the file holds at least a header and its first one is not complete.
     * @throws IOException if the file cannot be read.
     */
    static boolean firstHeaderTorn(final Path file) throws IOException
    {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ))
        {
            final ByteBuffer header = ByteBuffer.allocate(4).order(LITTLE_ENDIAN);
            if (channel.read(header, 0) < 4)
            {
                return false;
            }
            final int value = header.getInt(0);
            return value != END_OF_DATA && (value & NOT_COMPLETE) != 0;
        }
    }

    /**
     * Whether a torn header sits at the unaligned end of a document. Chronicle's padding up to the
     * next boundary is zeros, so an unaligned read that starts in non-zero bytes is no padding.
     */
    private static boolean isTorn(final FileChannel channel, final ByteBuffer header, final long at) throws IOException
    {
        header.clear();
        if (channel.read(header, at) < 4)
        {
            return false;
        }
        final int value = header.getInt(0);
        final int paddingBits = (int)(4 - (at & 3)) * 8;
        final boolean padding = (value & (int)((1L << paddingBits) - 1)) == 0;
        return !padding && value != END_OF_DATA && (value & NOT_COMPLETE) != 0;
    }

    /**
     * How the last walk ended.
     *
     * @return the kind of header it stopped at.
     */
    End end()
    {
        return end;
    }

    /**
     * Where the last walk stopped.
     *
     * @return the file position of the header it stopped at.
     */
    long position()
    {
        return position;
    }

    private QueueFileWalk result(final End end, final long position)
    {
        this.end = end;
        this.position = position;
        return this;
    }
}
