package io.ringwatch.perf.report;

/**
 * Maps positive values to pixels on a logarithmic axis between two whole decades. Immutable;
 * any thread; allocates nothing.
 */
public final class LogScale
{
    private final int lowDecade;
    private final int highDecade;
    private final double pixelLow;
    private final double pixelHigh;

    /**
     * @param lowDecade  the axis starts at 10^lowDecade.
     * @param highDecade the axis ends at 10^highDecade; greater than {@code lowDecade}.
     * @param pixelLow   the pixel of the low end.
     * @param pixelHigh  the pixel of the high end (smaller than {@code pixelLow} for a y axis).
     * @throws IllegalArgumentException if the decades are not increasing.
     */
    public LogScale(final int lowDecade, final int highDecade, final double pixelLow, final double pixelHigh)
    {
        if (highDecade <= lowDecade)
        {
            throw new IllegalArgumentException("high decade must exceed low decade: " + lowDecade + ", " + highDecade);
        }
        this.lowDecade = lowDecade;
        this.highDecade = highDecade;
        this.pixelLow = pixelLow;
        this.pixelHigh = pixelHigh;
    }

    /**
     * @param low  the smallest value to show; positive.
     * @param high the largest value to show.
     * @param pixelLow  the pixel of the low end.
     * @param pixelHigh the pixel of the high end.
     * @return a scale from the decade at or below {@code low} to the one at or above {@code high}.
     */
    public static LogScale covering(final double low, final double high, final double pixelLow, final double pixelHigh)
    {
        final int lowDecade = (int)Math.floor(Math.log10(low));
        final int highDecade = Math.max(lowDecade + 1, (int)Math.ceil(Math.log10(Math.max(low, high))));
        return new LogScale(lowDecade, highDecade, pixelLow, pixelHigh);
    }

    /**
     * @param value a value; clamped into the axis' range.
     * @return its pixel.
     */
    public double pixel(final double value)
    {
        final double decades = value > 0 ? Math.log10(value) : lowDecade;
        final double clamped = Math.max(lowDecade, Math.min(highDecade, decades));
        return pixelLow + (clamped - lowDecade) / (highDecade - lowDecade) * (pixelHigh - pixelLow);
    }

    /**
     * @return the exponent of the axis' first decade.
     */
    public int lowDecade()
    {
        return lowDecade;
    }

    /**
     * @return the exponent of the axis' last decade.
     */
    public int highDecade()
    {
        return highDecade;
    }
}
