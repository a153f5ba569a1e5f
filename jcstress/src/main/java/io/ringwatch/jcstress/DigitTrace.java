package io.ringwatch.jcstress;

/**
 * Records a short sequence of small values as the decimal digits of one int, so that a jcstress outcome can
 * state a whole observed sequence ("123" = saw 1, then 2, then 3; 0 = saw nothing) and be matched by a regex.
 * <p>
 * Any thread; allocates nothing. Tests offer the values 1 to at most 8; a value outside
 * {@code [1, lastOffered]} is recorded as {@link #NEVER_OFFERED}, so that a read of an unwritten slot (0) or of
 * garbage shows up as a digit no acceptable outcome contains, rather than vanishing from the trace.
 */
final class DigitTrace
{
    /**
     * The digit that stands for a value the test never offered.
     */
    static final int NEVER_OFFERED = 9;

    private DigitTrace()
    {
    }

    /**
     * Appends one observed value to a trace.
     *
     * @param trace       the trace so far; 0 when empty.
     * @param value       the value just observed.
     * @param lastOffered the largest value the test offers; values run from 1 to it, at most 8.
     * @return the trace with the value's digit appended.
     */
    static int append(final int trace, final long value, final int lastOffered)
    {
        final int digit = value >= 1 && value <= lastOffered ? (int)value : NEVER_OFFERED;
        return trace * 10 + digit;
    }
}
