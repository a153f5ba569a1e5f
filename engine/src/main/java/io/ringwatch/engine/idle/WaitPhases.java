package io.ringwatch.engine.idle;

import org.agrona.concurrent.NanoClock;

/**
 * The idle steps both wakeable strategies take while there is no work: spin a count of steps,
 * then spin for a time (when given one), then yield, then arm the doorbell (one step that
 * returns, so the caller checks for work after the arm), then park on it. After a park the
 * doorbell is re-armed before the next one, since a ring disarms it.
 * <p>
 * Parks last at most {@code maxParkNanos} until the thread has parked for {@code deepAfterNanos}
 * without work, then at most {@code deepParkNanos} (deep idle): every hand-off rings, so the
 * timeout only bounds work that rings no doorbell, and such work tells its time through
 * {@link DueWork}, which shortens any park. Owner thread only; no allocation.
 */
final class WaitPhases
{
    /** The timed spin reads the clock on its first step and then once every this many + 1 steps. */
    private static final int CLOCK_READ_MASK = 63;

    private final Doorbell doorbell;
    private final int spins;
    private final long spinNanos;
    private final int spinsAndYields;
    private final long maxParkNanos;
    private final long deepAfterNanos;
    private final long deepParkNanos;
    private final NanoClock clock;
    private DueWork due;
    private long parkedSince;
    private boolean parked;
    private int steps;
    private long timedSteps;
    private long spinDeadline;
    private boolean timedSpinOver;
    private boolean armed;

    /**
     * Parks of at most {@code maxParkNanos} however long the thread idles: no deep idle.
     *
     * @throws IllegalArgumentException if {@code spins}, {@code spinNanos} or {@code yields} is
     * negative or {@code maxParkNanos} is not positive.
     */
    WaitPhases(final Doorbell doorbell, final int spins, final long spinNanos, final int yields,
        final long maxParkNanos, final NanoClock clock)
    {
        this(doorbell, spins, spinNanos, yields, maxParkNanos, Long.MAX_VALUE, maxParkNanos, clock);
    }

    /**
     * @param deepAfterNanos how long the thread parks without work before its parks last up to
     *                       {@code deepParkNanos}; not negative.
     * @param deepParkNanos  the longest deep park; at least {@code maxParkNanos}.
     * @throws IllegalArgumentException if {@code spins}, {@code spinNanos}, {@code yields} or
     * {@code deepAfterNanos} is negative, {@code maxParkNanos} is not positive or
     * {@code deepParkNanos} is less than it.
     */
    WaitPhases(final Doorbell doorbell, final int spins, final long spinNanos, final int yields,
        final long maxParkNanos, final long deepAfterNanos, final long deepParkNanos, final NanoClock clock)
    {
        if (deepAfterNanos < 0 || deepParkNanos < maxParkNanos)
        {
            throw new IllegalArgumentException("deep idle after " + deepAfterNanos + " ns, deep park " + deepParkNanos +
                " ns: the first must not be negative, the second not below the max park " + maxParkNanos + " ns");
        }
        if (spins < 0 || yields < 0 || spinNanos < 0)
        {
            throw new IllegalArgumentException(
                "spins, spin nanos and yields must not be negative: " + spins + ", " + spinNanos + ", " + yields);
        }
        if (maxParkNanos <= 0)
        {
            throw new IllegalArgumentException("max park nanos must be positive: " + maxParkNanos);
        }
        this.doorbell = doorbell;
        this.spins = spins;
        this.spinNanos = spinNanos;
        this.spinsAndYields = spins + yields;
        this.maxParkNanos = maxParkNanos;
        this.deepAfterNanos = deepAfterNanos;
        this.deepParkNanos = deepParkNanos;
        this.clock = clock;
        timedSpinOver = spinNanos == 0;
    }

    Doorbell doorbell()
    {
        return doorbell;
    }

    /**
     * Sets the owner's work that falls due without a ring; null for none. Owner thread, or before
     * it starts.
     */
    void dueWork(final DueWork work)
    {
        due = work;
    }

    /** One idle step. */
    void step()
    {
        if (steps < spins)
        {
            steps++;
            Thread.onSpinWait();
        }
        else if (!timedSpinOver)
        {
            spinForTime();
        }
        else if (steps < spinsAndYields)
        {
            steps++;
            Thread.yield();
        }
        else if (!armed)
        {
            doorbell.arm();
            armed = true;
        }
        else
        {
            doorbell.park(parkNanos(clock.nanoTime()));
            // A ring disarmed it, a timeout did not: disarm so the next step re-arms either way.
            doorbell.disarm();
            armed = false;
        }
    }

    private void spinForTime()
    {
        if (timedSteps == 0)
        {
            spinDeadline = clock.nanoTime() + spinNanos;
        }
        else if ((timedSteps & CLOCK_READ_MASK) == 0 && clock.nanoTime() - spinDeadline >= 0)
        {
            timedSpinOver = true;
        }
        timedSteps++;
        Thread.onSpinWait();
    }

    /**
     * How long the next park may last: the shallow bound until the thread has parked for
     * {@code deepAfterNanos}, then the deep one; no later than the owner's due work, and the
     * shallow bound while that work must be polled. Counts the park as begun.
     */
    long parkNanos(final long nowNanos)
    {
        if (!parked)
        {
            parked = true;
            parkedSince = nowNanos;
        }
        long nanos = nowNanos - parkedSince >= deepAfterNanos ? deepParkNanos : maxParkNanos;
        final DueWork work = due;
        if (work != null)
        {
            final long until = work.nanosUntilDue(nowNanos);
            nanos = Math.min(nanos, until <= 0 ? maxParkNanos : until);
        }
        return nanos;
    }

    /** Back to the first step: the caller found work. */
    void reset()
    {
        parked = false;
        steps = 0;
        timedSteps = 0;
        timedSpinOver = spinNanos == 0;
        if (armed)
        {
            doorbell.disarm();
            armed = false;
        }
    }

    String describe()
    {
        return "spins=" + spins + ", spinNanos=" + spinNanos + ", yields=" + (spinsAndYields - spins) +
            ", maxParkNanos=" + maxParkNanos + ", deepAfterNanos=" + deepAfterNanos + ", deepParkNanos=" + deepParkNanos;
    }
}
