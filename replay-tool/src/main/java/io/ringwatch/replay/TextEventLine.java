package io.ringwatch.replay;

import io.ringwatch.persistence.ChangeType;
import io.ringwatch.persistence.ChangeView;
import org.agrona.DirectBuffer;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * Writes {@code print}'s text line of one event straight from the log's buffer into a reused
 * byte array: the same text as {@link OutputFormat#TEXT}'s {@code event} ({@code rev=... time=...
 * PUT key=... value=... create=... mod=... version=... prev=...}), without the strings, byte
 * copies and {@code KeyState}s that path allocates per line, and, on the tool's own output
 * ({@link ToolOut}), without a round trip through characters. Printable ASCII keys and values (the
 * common case) are copied in bulk; anything else goes through {@link ByteText#printable} as
 * before, so both paths print the same text.
 *
 * <p>One thread (the command's); allocation: none per line in steady state on a {@link ToolOut},
 * except for keys or values that are not printable ASCII, and once per second of timestamps; on
 * another writer, one string per line.
 */
final class TextEventLine
{
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final byte[] LINE_END = ascii(System.lineSeparator());
    private static final byte[] REV = ascii("rev=");
    private static final byte[] TIME = ascii(" time=");
    private static final byte[] PUT = ascii(" PUT");
    private static final byte[] DELETE = ascii(" DELETE");
    private static final byte[] KEY = ascii(" key=");
    private static final byte[] VALUE = ascii(" value=");
    private static final byte[] CREATE = ascii(" create=");
    private static final byte[] MOD = ascii(" mod=");
    private static final byte[] VERSION = ascii(" version=");
    private static final byte[] PREV = ascii(" prev=");
    private static final byte[] LEASE = ascii(" lease=");
    private static final byte[] NONE = ascii("-");

    private final PrintWriter out;
    private final ToolOut.Utf8Buffer bytes;
    private byte[] line = new byte[256];
    private int length;
    private long cachedSecond = Long.MIN_VALUE;
    private byte[] cachedSecondText;

    /**
     * @param out where lines go: straight into its byte buffer when it is a {@link ToolOut}.
     */
    TextEventLine(final PrintWriter out)
    {
        this.out = out;
        this.bytes = out instanceof ToolOut ? ((ToolOut)out).bytes() : null;
    }

    /**
     * Writes one event's line, line end included.
     *
     * @param revision       the revision.
     * @param timestampNanos when it was applied, epoch nanoseconds.
     * @param change         the change, valid during the call.
     */
    void write(final long revision, final long timestampNanos, final ChangeView change)
    {
        length = 0;
        final boolean put = change.type() == ChangeType.PUT;
        final DirectBuffer buffer = change.buffer();
        append(REV);
        append(revision);
        append(TIME);
        appendInstant(timestampNanos);
        append(put ? PUT : DELETE);
        append(KEY);
        appendPrintable(buffer, change.keyOffset(), change.keyLength());
        append(VALUE);
        if (put)
        {
            appendPrintable(buffer, change.valueOffset(), change.valueLength());
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
            appendPrintable(buffer, change.prevValueOffset(), change.prevValueLength());
        }
        if (put && change.lease() != 0)
        {
            append(LEASE);
            append(change.lease());
        }
        append(LINE_END);
        if (bytes != null)
        {
            bytes.writeBytes(line, 0, length);
        }
        else
        {
            out.write(new String(line, 0, length, StandardCharsets.UTF_8));
        }
    }

    /** Quoted printable ASCII, copied in bulk then checked; else the general path. */
    private void appendPrintable(final DirectBuffer buffer, final int offset, final int count)
    {
        ensure(2 * count + 2);
        final int start = length + 1;
        buffer.getBytes(offset, line, start, count);
        int escapes = 0;
        for (int i = start, end = start + count; i < end; i++)
        {
            final byte b = line[i];
            if (b < 0x20 || b > 0x7E)
            {
                appendGeneral(buffer, offset, count);
                return;
            }
            if (b == '"' || b == '\\')
            {
                escapes++;
            }
        }
        line[length] = '"';
        if (escapes == 0)
        {
            length = start + count;
        }
        else
        {
            // Rare: shift right to make room for each backslash, from the end.
            int to = start + count + escapes - 1;
            for (int from = start + count - 1; from >= start; from--)
            {
                final byte b = line[from];
                line[to--] = b;
                if (b == '"' || b == '\\')
                {
                    line[to--] = '\\';
                }
            }
            length = start + count + escapes;
        }
        line[length++] = '"';
    }

    private void appendGeneral(final DirectBuffer buffer, final int offset, final int count)
    {
        final byte[] copy = new byte[count];
        buffer.getBytes(offset, copy);
        append(ByteText.printable(copy).getBytes(StandardCharsets.UTF_8));
    }

    /** As {@code InstantText}: seconds from a cache, then a 3, 6 or 9 digit fraction unless zero. */
    private void appendInstant(final long epochNanos)
    {
        final long second = Math.floorDiv(epochNanos, NANOS_PER_SECOND);
        final int nanos = (int)Math.floorMod(epochNanos, NANOS_PER_SECOND);
        if (second != cachedSecond)
        {
            final String whole = Instant.ofEpochSecond(second).toString();
            cachedSecondText = ascii(whole.substring(0, whole.length() - 1));
            cachedSecond = second;
        }
        append(cachedSecondText);
        ensure(11);
        if (nanos != 0)
        {
            final int digits = nanos % 1_000_000 == 0 ? 3 : nanos % 1_000 == 0 ? 6 : 9;
            int value = digits == 3 ? nanos / 1_000_000 : digits == 6 ? nanos / 1_000 : nanos;
            line[length++] = '.';
            for (int i = digits - 1; i >= 0; i--)
            {
                line[length + i] = (byte)('0' + value % 10);
                value /= 10;
            }
            length += digits;
        }
        line[length++] = 'Z';
    }

    private void append(final byte[] text)
    {
        ensure(text.length);
        System.arraycopy(text, 0, line, length, text.length);
        length += text.length;
    }

    private void append(final long value)
    {
        ensure(AsciiDecimal.MAX_LENGTH);
        length = AsciiDecimal.write(value, line, length);
    }

    private void ensure(final int more)
    {
        if (length + more > line.length)
        {
            final byte[] grown = new byte[Math.max(line.length * 2, length + more)];
            System.arraycopy(line, 0, grown, 0, length);
            line = grown;
        }
    }

    private static byte[] ascii(final String text)
    {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
