package io.ringwatch.replay;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;

/**
 * The tool's standard output: a {@link PrintWriter} for picocli and every command, over one byte
 * buffer that characters are encoded into as UTF-8 (ASCII byte by byte, the rest through the JDK's
 * encoder) and that is written to the stream when full and on {@link #flush()}; and, beside it,
 * {@link #bytes()}, where a command that already holds a line as UTF-8 bytes ({@code print}) puts
 * it without a round trip through characters. Both go through the same buffer, in call order.
 *
 * <p>One thread at a time (the command's); allocation: none per call for ASCII text.
 */
final class ToolOut extends PrintWriter
{
    /**
     * @param stream      where the bytes go; not closed by this writer.
     * @param bufferBytes the buffer's size.
     */
    ToolOut(final OutputStream stream, final int bufferBytes)
    {
        super(new Utf8Buffer(stream, bufferBytes), false);
    }

    /**
     * @return the byte buffer under this writer, for lines already encoded as UTF-8.
     */
    Utf8Buffer bytes()
    {
        return (Utf8Buffer)out;
    }

    /** The byte buffer, as a {@link Writer} that encodes characters into it as UTF-8. */
    static final class Utf8Buffer extends Writer
    {
        private final OutputStream stream;
        private final byte[] buffer;
        private int used;

        Utf8Buffer(final OutputStream stream, final int bufferBytes)
        {
            this.stream = stream;
            this.buffer = new byte[bufferBytes];
        }

        /**
         * Appends bytes that are already UTF-8.
         *
         * @param bytes  the bytes.
         * @param offset where they start.
         * @param length how many.
         * @throws UncheckedIOException if the stream fails.
         */
        void writeBytes(final byte[] bytes, final int offset, final int length)
        {
            try
            {
                if (length > buffer.length - used)
                {
                    drain();
                    if (length > buffer.length)
                    {
                        stream.write(bytes, offset, length);
                        return;
                    }
                }
                System.arraycopy(bytes, offset, buffer, used, length);
                used += length;
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
        }

        @Override
        public void write(final char[] chars, final int offset, final int length) throws IOException
        {
            for (int i = 0; i < length; i++)
            {
                if (chars[offset + i] >= 0x80)
                {
                    // Not ASCII: the JDK's encoder, for the whole run (surrogate pairs included).
                    final byte[] encoded = new String(chars, offset, length).getBytes(StandardCharsets.UTF_8);
                    writeBytes(encoded, 0, encoded.length);
                    return;
                }
            }
            int done = 0;
            while (done < length)
            {
                if (used == buffer.length)
                {
                    drain();
                }
                final int n = Math.min(length - done, buffer.length - used);
                for (int i = 0; i < n; i++)
                {
                    buffer[used + i] = (byte)chars[offset + done + i];
                }
                used += n;
                done += n;
            }
        }

        @Override
        public void write(final String text, final int offset, final int length) throws IOException
        {
            for (int i = 0; i < length; i++)
            {
                if (text.charAt(offset + i) >= 0x80)
                {
                    final byte[] encoded = text.substring(offset, offset + length).getBytes(StandardCharsets.UTF_8);
                    writeBytes(encoded, 0, encoded.length);
                    return;
                }
            }
            for (int i = 0; i < length; i++)
            {
                if (used == buffer.length)
                {
                    drain();
                }
                buffer[used++] = (byte)text.charAt(offset + i);
            }
        }

        @Override
        public void write(final int c) throws IOException
        {
            if (c >= 0x80)
            {
                write(String.valueOf((char)c), 0, 1);
                return;
            }
            if (used == buffer.length)
            {
                drain();
            }
            buffer[used++] = (byte)c;
        }

        @Override
        public void flush() throws IOException
        {
            drain();
            stream.flush();
        }

        @Override
        public void close() throws IOException
        {
            flush();
        }

        private void drain() throws IOException
        {
            if (used > 0)
            {
                stream.write(buffer, 0, used);
                used = 0;
            }
        }
    }
}
