package io.ringwatch.replay;

import java.time.Instant;

/**
 * Formats epoch-nanosecond timestamps exactly as {@link Instant#toString()} does, fast: the
 * date and time of day are formatted once per second and kept, the fraction appended by hand
 * (none, 3, 6 or 9 digits, as ISO-8601's instant format chooses). {@code print} formats a
 * timestamp per line, and {@code Instant.toString()} was a fifth of its time. One thread per
 * instance; allocates the returned string and, once a second of timestamps, the cached prefix.
 */
final class InstantText
{
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final StringBuilder text = new StringBuilder(40);
    private long cachedSecond = Long.MIN_VALUE;
    private String cachedPrefix;

    /**
     * The timestamp as an ISO-8601 instant.
     *
     * @param epochNanos nanoseconds since the epoch.
     * @return the same text as {@code Instant.EPOCH.plusNanos(epochNanos).toString()}.
     */
    String format(final long epochNanos)
    {
        final long second = Math.floorDiv(epochNanos, NANOS_PER_SECOND);
        final int nanos = (int)Math.floorMod(epochNanos, NANOS_PER_SECOND);
        if (second != cachedSecond)
        {
            final String whole = Instant.ofEpochSecond(second).toString();
            // Without a fraction the text ends in 'Z'; the fraction goes before it.
            cachedPrefix = whole.substring(0, whole.length() - 1);
            cachedSecond = second;
        }
        text.setLength(0);
        text.append(cachedPrefix);
        if (nanos != 0)
        {
            final int digits = nanos % 1_000_000 == 0 ? 3 : nanos % 1_000 == 0 ? 6 : 9;
            final int value = digits == 3 ? nanos / 1_000_000 : digits == 6 ? nanos / 1_000 : nanos;
            text.append('.');
            final int start = text.length();
            text.append(value);
            while (text.length() - start < digits)
            {
                text.insert(start, '0');
            }
        }
        return text.append('Z').toString();
    }
}
