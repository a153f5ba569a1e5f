package io.ringwatch.replay;

import io.ringwatch.persistence.ChangeType;
import io.ringwatch.persistence.ChangeView;
import org.agrona.DirectBuffer;

import java.io.Writer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;

/**
 * Writes {@code print}'s text line of one event straight from the log's buffer into a reused
 * {@code char[]}, then hands it to the writer in one call: the same characters as
 * {@link OutputFormat#TEXT}'s {@code event} ({@code rev=... time=... PUT key=... value=...
 * create=... mod=... version=... prev=...}), without the strings, byte copies and
 * {@code KeyState}s that path allocates per line. Printable ASCII keys and values (the common
 * case) are copied character by character; anything else goes through {@link ByteText#printable}
 * as before, so both paths print the same text.
 *
 * <p>One thread (the command's); allocation: none per line in steady state, except for keys or
 * values that are not printable ASCII, and once per second of timestamps.
 */
final class TextEventLine
{
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final char[] LINE_END = System.lineSeparator().toCharArray();
    private static final char[] REV = "rev=".toCharArray();
    private static final char[] TIME = " time=".toCharArray();
    private static final char[] PUT = " PUT".toCharArray();
    private static final char[] DELETE = " DELETE".toCharArray();
    private static final char[] KEY = " key=".toCharArray();
    private static final char[] VALUE = " value=".toCharArray();
    private static final char[] CREATE = " create=".toCharArray();
    private static final char[] MOD = " mod=".toCharArray();
    private static final char[] VERSION = " version=".toCharArray();
    private static final char[] PREV = " prev=".toCharArray();
    private static final char[] NONE = "-".toCharArray();

    private char[] line = new char[256];
    private int length;
    private long cachedSecond = Long.MIN_VALUE;
    private char[] cachedSecondText;

    /**
     * Writes one event's line, line end included.
     *
     * @param out            where the line goes.
     * @param revision       the revision.
     * @param timestampNanos when it was applied, epoch nanoseconds.
     * @param change         the change, valid during the call.
     * @throws UncheckedIOException if the writer fails.
     */
    void write(final Writer out, final long revision, final long timestampNanos, final ChangeView change)
    {
        length = 0;
        final boolean put = change.type() == ChangeType.PUT;
        append(REV);
        append(revision);
        append(TIME);
        appendInstant(timestampNanos);
        append(put ? PUT : DELETE);
        append(KEY);
        appendPrintable(change.buffer(), change.keyOffset(), change.keyLength());
        append(VALUE);
        if (put)
        {
            appendPrintable(change.buffer(), change.valueOffset(), change.valueLength());
        }
        else
        {
            append(NONE);
        }
        append(CREATE);
        append(put ? change.createRevision() : 0);
        append(MOD);
        // A DELETE as the live watch event shows it: mod revision = the delete's revision.
        append(put ? change.modRevision() : revision);
        append(VERSION);
        append(put ? change.version() : 0);
        append(PREV);
        if (change.prevModRevision() == 0)
        {
            append(NONE);
        }
        else
        {
            appendPrintable(change.buffer(), change.prevValueOffset(), change.prevValueLength());
        }
        append(LINE_END);
        try
        {
            out.write(line, 0, length);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private void appendPrintable(final DirectBuffer buffer, final int offset, final int bytes)
    {
        for (int i = 0; i < bytes; i++)
        {
            final byte b = buffer.getByte(offset + i);
            if (b < 0x20 || b > 0x7E)
            {
                appendSlow(buffer, offset, bytes);
                return;
            }
        }
        ensure(2 * bytes + 2);
        line[length++] = '"';
        for (int i = 0; i < bytes; i++)
        {
            final char c = (char)buffer.getByte(offset + i);
            if (c == '"' || c == '\\')
            {
                line[length++] = '\\';
            }
            line[length++] = c;
        }
        line[length++] = '"';
    }

    private void appendSlow(final DirectBuffer buffer, final int offset, final int bytes)
    {
        final byte[] copy = new byte[bytes];
        buffer.getBytes(offset, copy);
        final String text = ByteText.printable(copy);
        ensure(text.length());
        text.getChars(0, text.length(), line, length);
        length += text.length();
    }

    /** As {@code InstantText}: seconds from a cache, then a 3, 6 or 9 digit fraction unless zero. */
    private void appendInstant(final long epochNanos)
    {
        final long second = Math.floorDiv(epochNanos, NANOS_PER_SECOND);
        final int nanos = (int)Math.floorMod(epochNanos, NANOS_PER_SECOND);
        if (second != cachedSecond)
        {
            final String whole = Instant.ofEpochSecond(second).toString();
            cachedSecondText = whole.substring(0, whole.length() - 1).toCharArray();
            cachedSecond = second;
        }
        append(cachedSecondText);
        if (nanos != 0)
        {
            final int digits = nanos % 1_000_000 == 0 ? 3 : nanos % 1_000 == 0 ? 6 : 9;
            int value = digits == 3 ? nanos / 1_000_000 : digits == 6 ? nanos / 1_000 : nanos;
            ensure(digits + 1);
            line[length++] = '.';
            for (int i = digits - 1; i >= 0; i--)
            {
                line[length + i] = (char)('0' + value % 10);
                value /= 10;
            }
            length += digits;
        }
        ensure(1);
        line[length++] = 'Z';
    }

    private void append(final char[] text)
    {
        ensure(text.length);
        System.arraycopy(text, 0, line, length, text.length);
        length += text.length;
    }

    private void append(final long value)
    {
        ensure(20);
        if (value == 0)
        {
            line[length++] = '0';
            return;
        }
        long v = value;
        if (v < 0)
        {
            // Revisions, versions and create revisions are never negative; kept exact all the same.
            final String text = Long.toString(v);
            text.getChars(0, text.length(), line, length);
            length += text.length();
            return;
        }
        int digits = 0;
        for (long t = v; t != 0; t /= 10)
        {
            digits++;
        }
        for (int i = digits - 1; i >= 0; i--)
        {
            line[length + i] = (char)('0' + v % 10);
            v /= 10;
        }
        length += digits;
    }

    private void ensure(final int more)
    {
        if (length + more > line.length)
        {
            final char[] grown = new char[Math.max(line.length * 2, length + more)];
            System.arraycopy(line, 0, grown, 0, length);
            line = grown;
        }
    }
}
