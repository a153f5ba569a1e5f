package io.ringwatch.engine.idle;

/**
 * The idle steps both wakeable strategies take while there is no work: spin, then yield, then
 * arm the doorbell (one step that returns, so the caller checks for work after the arm), then
 * park on it. After a park the doorbell is re-armed before the next one, since a ring disarms
 * it. Owner thread only; no allocation.
 */
final class WaitPhases
{
    private final Doorbell doorbell;
    private final int spins;
    private final int spinsAndYields;
    private final long maxParkNanos;
    private int steps;
    private boolean armed;

    /**
     * @throws IllegalArgumentException if {@code spins} or {@code yields} is negative or
     * {@code maxParkNanos} is not positive.
     */
    WaitPhases(final Doorbell doorbell, final int spins, final int yields, final long maxParkNanos)
    {
        if (spins < 0 || yields < 0)
        {
            throw new IllegalArgumentException("spins and yields must not be negative: " + spins + ", " + yields);
        }
        if (maxParkNanos <= 0)
        {
            throw new IllegalArgumentException("max park nanos must be positive: " + maxParkNanos);
        }
        this.doorbell = doorbell;
        this.spins = spins;
        this.spinsAndYields = spins + yields;
        this.maxParkNanos = maxParkNanos;
    }

    Doorbell doorbell()
    {
        return doorbell;
    }

    /** One idle step. */
    void step()
    {
        if (steps < spinsAndYields)
        {
            if (steps++ < spins)
            {
                Thread.onSpinWait();
            }
            else
            {
                Thread.yield();
            }
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

    /** Back to the first step: the caller found work. */
    void reset()
    {
        steps = 0;
        if (armed)
        {
            doorbell.disarm();
            armed = false;
        }
    }

    String describe()
    {
        return "spins=" + spins + ", yields=" + (spinsAndYields - spins) + ", maxParkNanos=" + maxParkNanos;
    }
}
