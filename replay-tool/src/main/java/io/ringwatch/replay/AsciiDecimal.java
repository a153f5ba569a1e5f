package io.ringwatch.replay;

/**
 * Writes a {@code long} in decimal as ASCII bytes into an array, the same digits as
 * {@link Long#toString(long)}, without a string. Counted by comparison, then written two digits at
 * a time from a table, in {@code int} arithmetic once the value fits: a fresh JVM runs this
 * interpreted for the first thousands of {@code print} lines, where a long division per digit was
 * the costliest step of a line (JFR of a cold {@code print}).
 *
 * <p>Stateless, any thread; allocation: none (a negative value, which no revision, version or
 * create revision is, goes through {@link Long#toString(long)}).
 */
final class AsciiDecimal
{
    /** The most bytes one value takes: {@code Long.MIN_VALUE}'s sign and 19 digits. */
    static final int MAX_LENGTH = 20;

    /** "00" to "99": the digits of n at 2n and 2n + 1. */
    private static final byte[] DIGIT_PAIRS = digitPairs();
    /** 10^0 to 10^18: a non-negative long has one digit more than the powers above 1 it reaches. */
    private static final long[] POWERS_OF_TEN = powersOfTen();

    private AsciiDecimal()
    {
    }

    /**
     * Writes {@code value} at {@code at}.
     *
     * @param value the value.
     * @param into  the array; {@link #MAX_LENGTH} bytes from {@code at} must fit.
     * @param at    where the first digit goes.
     * @return the index after the last digit.
     */
    static int write(final long value, final byte[] into, final int at)
    {
        if (value < 0)
        {
            final String text = Long.toString(value);
            for (int i = 0; i < text.length(); i++)
            {
                into[at + i] = (byte)text.charAt(i);
            }
            return at + text.length();
        }
        int digits = 1;
        while (digits < POWERS_OF_TEN.length && value >= POWERS_OF_TEN[digits])
        {
            digits++;
        }
        final int end = at + digits;
        int next = end;
        long high = value;
        while (high > Integer.MAX_VALUE)
        {
            final long rest = high / 100;
            next = putPair(into, next, (int)(high - rest * 100));
            high = rest;
        }
        int low = (int)high;
        while (low >= 100)
        {
            final int rest = low / 100;
            next = putPair(into, next, low - rest * 100);
            low = rest;
        }
        if (low >= 10)
        {
            putPair(into, next, low);
        }
        else
        {
            into[next - 1] = (byte)('0' + low);
        }
        return end;
    }

    /** Writes {@code pair} (0..99) as the two digits that end before {@code end}; returns where they start. */
    private static int putPair(final byte[] into, final int end, final int pair)
    {
        into[end - 1] = DIGIT_PAIRS[2 * pair + 1];
        into[end - 2] = DIGIT_PAIRS[2 * pair];
        return end - 2;
    }

    private static byte[] digitPairs()
    {
        final byte[] pairs = new byte[200];
        for (int n = 0; n < 100; n++)
        {
            pairs[2 * n] = (byte)('0' + n / 10);
            pairs[2 * n + 1] = (byte)('0' + n % 10);
        }
        return pairs;
    }

    private static long[] powersOfTen()
    {
        final long[] powers = new long[19];
        powers[0] = 1;
        for (int i = 1; i < powers.length; i++)
        {
            powers[i] = powers[i - 1] * 10;
        }
        return powers;
    }
}
