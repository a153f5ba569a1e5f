package io.ringwatch.replay;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import org.agrona.DirectBuffer;

/**
 * Which keys a command looks at: all, one key, a prefix, or the half-open range {@code [from, end)}
 * in unsigned byte order (etcd's order). Keys on the command line are UTF-8. Immutable; any
 * thread; {@link #matches} allocates nothing.
 */
final class KeyFilter
{
    private static final KeyFilter ALL = new KeyFilter(Mode.ALL, new byte[0], null);

    private enum Mode
    {
        ALL, KEY, PREFIX, RANGE
    }

    private final Mode mode;
    private final byte[] from;
    private final byte[] end;

    private KeyFilter(final Mode mode, final byte[] from, final byte[] end)
    {
        this.mode = mode;
        this.from = from;
        this.end = end;
    }

    /**
     * Every key.
     *
     * @return the shared filter that matches every key.
     */
    static KeyFilter all()
    {
        return ALL;
    }

    /**
     * Exactly one key.
     *
     * @param key the key, UTF-8.
     * @return the filter.
     * @throws UsageException if the key is empty.
     */
    static KeyFilter key(final String key)
    {
        return new KeyFilter(Mode.KEY, nonEmpty("--key", key), null);
    }

    /**
     * Every key starting with {@code prefix}.
     *
     * @param prefix the prefix, UTF-8.
     * @return the filter.
     * @throws UsageException if the prefix is empty.
     */
    static KeyFilter prefix(final String prefix)
    {
        return new KeyFilter(Mode.PREFIX, nonEmpty("--prefix", prefix), null);
    }

    /**
     * The range {@code [K, END)} written {@code K,END} (split at the first comma).
     *
     * @param spec the range.
     * @return the filter.
     * @throws UsageException if there is no comma, a side is empty, or END does not sort after K.
     */
    static KeyFilter range(final String spec)
    {
        final int comma = spec.indexOf(',');
        if (comma < 0)
        {
            throw new UsageException("--range takes K,END (a comma between the first key and the end key), got '" + spec + "'");
        }
        final byte[] from = nonEmpty("--range start", spec.substring(0, comma));
        final byte[] end = nonEmpty("--range end", spec.substring(comma + 1));
        if (Arrays.compareUnsigned(end, from) <= 0)
        {
            throw new UsageException("--range end '" + spec.substring(comma + 1) + "' must sort after its start '" +
                spec.substring(0, comma) + "'");
        }
        return new KeyFilter(Mode.RANGE, from, end);
    }

    /**
     * Whether the key held in {@code buffer} passes.
     *
     * @param buffer the buffer holding the key.
     * @param offset where the key starts.
     * @param length the key's length.
     * @return true when the key is selected.
     */
    boolean matches(final DirectBuffer buffer, final int offset, final int length)
    {
        switch (mode)
        {
            case KEY:
                return length == from.length && compare(buffer, offset, length, from) == 0;
            case PREFIX:
                return length >= from.length && compare(buffer, offset, from.length, from) == 0;
            case RANGE:
                return compare(buffer, offset, length, from) >= 0 && compare(buffer, offset, length, end) < 0;
            default:
                return true;
        }
    }

    /**
     * Whether {@code key} passes.
     *
     * @param key the key bytes.
     * @return true when the key is selected.
     */
    boolean matches(final byte[] key)
    {
        switch (mode)
        {
            case KEY:
                return Arrays.equals(key, from);
            case PREFIX:
                return key.length >= from.length && Arrays.equals(key, 0, from.length, from, 0, from.length);
            case RANGE:
                return Arrays.compareUnsigned(key, from) >= 0 && Arrays.compareUnsigned(key, end) < 0;
            default:
                return true;
        }
    }

    private static int compare(final DirectBuffer buffer, final int offset, final int length, final byte[] other)
    {
        final int common = Math.min(length, other.length);
        for (int i = 0; i < common; i++)
        {
            final int cmp = Integer.compare(buffer.getByte(offset + i) & 0xFF, other[i] & 0xFF);
            if (cmp != 0)
            {
                return cmp;
            }
        }
        return Integer.compare(length, other.length);
    }

    private static byte[] nonEmpty(final String what, final String text)
    {
        if (text == null || text.isEmpty())
        {
            throw new UsageException(what + " must not be empty");
        }
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
