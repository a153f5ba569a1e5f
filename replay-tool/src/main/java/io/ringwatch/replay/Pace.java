package io.ringwatch.replay;

/**
 * How fast {@code republish} goes, as a multiple of the original pace: {@code original} (1),
 * {@code Nx} (N times faster; N may be a fraction, {@code 0.5x} is half speed) or {@code max}
 * (no waiting at all). Immutable; any thread.
 *
 * @param speed the multiple; {@link Double#POSITIVE_INFINITY} for {@code max}.
 */
record Pace(double speed)
{
    /**
     * Parses {@code original}, {@code max} or {@code Nx}.
     *
     * @param text the option value.
     * @return the pace.
     * @throws UsageException if the text is none of those, or N is not a positive finite number.
     */
    static Pace parse(final String text)
    {
        final String value = text.trim();
        if ("original".equals(value))
        {
            return new Pace(1);
        }
        if ("max".equals(value))
        {
            return new Pace(Double.POSITIVE_INFINITY);
        }
        if (value.length() > 1 && (value.endsWith("x") || value.endsWith("X")))
        {
            try
            {
                final double speed = Double.parseDouble(value.substring(0, value.length() - 1));
                if (speed > 0 && Double.isFinite(speed))
                {
                    return new Pace(speed);
                }
            }
            catch (final NumberFormatException ex)
            {
                // Falls through to the one message that says what is accepted.
            }
        }
        throw new UsageException("--pace takes original, max or Nx with N > 0 (for example 10x or 0.5x), got '" + text + "'");
    }

    /**
     * Whether this pace never waits.
     *
     * @return true for {@code max}.
     */
    boolean unlimited()
    {
        return speed == Double.POSITIVE_INFINITY;
    }

    @Override
    public String toString()
    {
        if (unlimited())
        {
            return "max";
        }
        return speed == 1 ? "original" : (speed == Math.rint(speed) ? Long.toString((long)speed) : Double.toString(speed)) + "x";
    }
}
