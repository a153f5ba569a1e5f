package io.ringwatch.engine.idle;

import org.agrona.concurrent.IdleStrategy;

/**
 * An Agrona idle strategy that spins, then yields, then parks on a {@link Doorbell} until the
 * thread that hands it work rings, or at most {@code maxParkNanos}. The engine rings the doorbell
 * of a dispatcher when the writer publishes events or a watch command arrives, and of a delivery
 * thread at the end of each dispatcher batch that scheduled watchers on it; a thread given any
 * other strategy is never rung.
 * <p>
 * Against {@link org.agrona.concurrent.BackoffIdleStrategy}, the engine's earlier default: the
 * same idle CPU (parked), but an idle thread is woken by its work instead of by its next timed
 * park running out. Against spinning or yielding: no core is held while there is no work, which
 * matters when busy threads outnumber cores (and on Linux's EEVDF scheduler a yielding thread
 * can keep its core from a thread that has work). The park's timeout bounds the wait for work
 * that rings no doorbell, such as a due progress notification.
 * <p>
 * One instance per thread: {@code idle} and {@code reset} on that thread only; {@link #doorbell()}
 * from any thread. Allocation: none after construction.
 */
public final class WakeableIdleStrategy implements IdleStrategy
{
    /** Spins before yielding, by default: about a microsecond of {@link Thread#onSpinWait()}. */
    public static final int DEFAULT_SPINS = 100;
    /** Yields before parking, by default: none (see the class comment). */
    public static final int DEFAULT_YIELDS = 0;
    /** The longest park, by default: 1 ms. */
    public static final long DEFAULT_MAX_PARK_NANOS = 1_000_000;

    private final WaitPhases phases;

    /**
     * A strategy with the defaults: {@value #DEFAULT_SPINS} spins, {@value #DEFAULT_YIELDS}
     * yields, parks of at most {@value #DEFAULT_MAX_PARK_NANOS} ns.
     */
    public WakeableIdleStrategy()
    {
        this(DEFAULT_SPINS, DEFAULT_YIELDS, DEFAULT_MAX_PARK_NANOS);
    }

    /**
     * @param spins        idle steps that spin before any yield; not negative.
     * @param yields       idle steps that yield before parking; not negative.
     * @param maxParkNanos the longest park, in nanoseconds; positive.
     * @throws IllegalArgumentException if a bound is out of range.
     */
    public WakeableIdleStrategy(final int spins, final int yields, final long maxParkNanos)
    {
        phases = new WaitPhases(new Doorbell(), spins, yields, maxParkNanos);
    }

    /**
     * @return the doorbell that wakes this strategy's thread while it parks. Any thread.
     */
    public Doorbell doorbell()
    {
        return phases.doorbell();
    }

    /**
     * Resets after work was done, or takes one idle step after none was. Owner thread.
     *
     * @param workCount the work done by the caller's last duty cycle.
     */
    @Override
    public void idle(final int workCount)
    {
        if (workCount > 0)
        {
            phases.reset();
        }
        else
        {
            phases.step();
        }
    }

    /**
     * One idle step: spin, yield, arm the doorbell, or park, by how many steps came since the
     * last reset. Owner thread.
     */
    @Override
    public void idle()
    {
        phases.step();
    }

    /**
     * Back to spinning: the caller found work. Owner thread.
     */
    @Override
    public void reset()
    {
        phases.reset();
    }

    @Override
    public String alias()
    {
        return "wakeable";
    }

    @Override
    public String toString()
    {
        return "WakeableIdleStrategy{" + phases.describe() + '}';
    }
}
