package io.ringwatch.engine.idle;

import org.agrona.concurrent.NanoClock;

/**
 * The idle steps both wakeable strategies take while there is no work: spin a count of steps,
 * then spin for a time (when given one), then yield, then arm the doorbell (one step that
 * returns, so the caller checks for work after the arm), then park on it. After a park the
 * doorbell is re-armed before the next one, since a ring disarms it. Owner thread only; no
 * allocation.
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
    private final NanoClock clock;
    private int steps;
    private long timedSteps;
    private long spinDeadline;
    private boolean timedSpinOver;
    private boolean armed;

    /**
     * @throws IllegalArgumentException if {@code spins}, {@code spinNanos} or {@code yields} is
     * negative or {@code maxParkNanos} is not positive.
     */
    WaitPhases(final Doorbell doorbell, final int spins, final long spinNanos, final int yields,
        final long maxParkNanos, final NanoClock clock)
    {
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
        this.clock = clock;
        timedSpinOver = spinNanos == 0;
    }

    Doorbell doorbell()
    {
        return doorbell;
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
            doorbell.park(maxParkNanos);
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

    /** Back to the first step: the caller found work. */
    void reset()
    {
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
            ", maxParkNanos=" + maxParkNanos;
    }
}
