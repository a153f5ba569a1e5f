package io.ringwatch.server.admission;

/**
 * The admission rule: writes stop once the backlog passes the high mark, a fraction of the
 * engine's watch window, or once the gate had to hold a write because the writes admitted reached
 * that mark between two measurements; they resume only once the backlog is back below the low
 * mark, so that the gate does not flap around one value. Both marks scale with the window, which
 * grows and shrinks.
 *
 * <p>Single-threaded (the thread that measures the backlog); allocates nothing.
 */
public final class AdmissionMarks
{
    /** Writes stop past half the window: the slowest reading watch still has the other half. */
    public static final double DEFAULT_HIGH = 0.5;
    /** Writes resume below a quarter of the window. */
    public static final double DEFAULT_LOW = 0.25;

    private final double high;
    private final double low;
    private boolean admitting = true;

    /**
     * @param high the fraction of the window past which writes stop, in (0, 1].
     * @param low  the fraction below which they resume, in [0, high).
     * @throws IllegalArgumentException if the fractions are out of range.
     */
    public AdmissionMarks(final double high, final double low)
    {
        if (!(high > 0 && high <= 1 && low >= 0 && low < high))
        {
            throw new IllegalArgumentException("admission marks must satisfy 0 <= low < high <= 1: " + low + ", " + high);
        }
        this.high = high;
        this.low = low;
    }

    /**
     * @return marks at half and a quarter of the window.
     */
    public static AdmissionMarks defaults()
    {
        return new AdmissionMarks(DEFAULT_HIGH, DEFAULT_LOW);
    }

    /**
     * Applies the rule to one measurement.
     *
     * @param backlog      revisions the most behind reading watch owes its client.
     * @param window       revisions the engine's watch window holds (see {@link WriteAdmission}).
     * @param limitReached whether writes were held since the last measurement because those
     *                     admitted reached the high mark.
     * @return whether writes are admitted from now on.
     */
    public boolean admit(final long backlog, final long window, final boolean limitReached)
    {
        if (admitting)
        {
            admitting = !limitReached && backlog <= highMark(window);
        }
        else
        {
            admitting = backlog < (long)(window * low);
        }
        return admitting;
    }

    /**
     * @param window revisions the engine's watch window holds.
     * @return the most revisions the slowest reading watch may owe while writes are admitted.
     */
    public long highMark(final long window)
    {
        return (long)(window * high);
    }

    /**
     * @return whether the last measurement admitted writes (true before any).
     */
    public boolean admitting()
    {
        return admitting;
    }
}
