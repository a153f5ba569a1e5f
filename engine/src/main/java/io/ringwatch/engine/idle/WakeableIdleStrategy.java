package io.ringwatch.engine.idle;

import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;

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
 * that rings no doorbell. The default strategies ({@link #WakeableIdleStrategy()},
 * {@link #forHandOffs()}) idle deeply: after {@value #DEEP_IDLE_AFTER_NANOS} ns of parks without
 * work a park lasts up to {@link #DEEP_PARK_NANOS} (100 ms by default) instead of
 * {@value #DEFAULT_MAX_PARK_NANOS} ns, and work that falls due without a ring shortens it
 * ({@link #dueWork(DueWork)}): an idle engine's threads wake about ten times a second instead of a
 * thousand. A busy thread never parks that long, so a hand-off under load costs the same.
 * <p>
 * A hand-off thread (dispatcher, delivery) may also spin for a time before it yields and parks
 * ({@link #forHandOffs()}): where the machine has cores to spare, a thread that is still spinning
 * when its next piece of work arrives takes it without a wake-up, which at hundreds of thousands
 * of events a second is most of the latency one hand-off adds. Where cores are few, spinning
 * would take a core from the thread that has the work, so it spins only its count of steps.
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
    /**
     * How long a default strategy parks without work before its parks last up to
     * {@link #DEEP_PARK_NANOS}: 10 ms, ten shallow parks, so a thread fed at any steady rate above
     * 100 events a second never idles deeply.
     */
    public static final long DEEP_IDLE_AFTER_NANOS = 10_000_000;
    /**
     * The longest deep park, in nanoseconds: 100 ms unless the system property
     * {@code ringwatch.idle.deepParkMillis} gives milliseconds (the engine's tests set hours, so that work
     * that relied on a timeout instead of a ring or a {@link DueWork} would hang them). It only
     * bounds the lateness of work nothing announces; at 100 ms an idle thread wakes ten times a
     * second, about 0.15 ms of CPU a second on the team's VM, against 10 ms at 1 ms parks.
     */
    public static final long DEEP_PARK_NANOS = Math.max(1, Long.getLong("ringwatch.idle.deepParkMillis", 100)) * 1_000_000L;
    /** How long {@link #forHandOffs()} spins after its counted spins where cores are to spare: 50 µs. */
    public static final long SPARE_CORE_SPIN_NANOS = 50_000;
    /**
     * The fewest available processors at which {@link #forHandOffs()} spins for a time: an engine
     * keeps up to four threads busy (producer, writer, dispatcher, delivery), so from eight there
     * are cores to spare for two spinning hand-off threads.
     */
    public static final int SPARE_CORE_PROCESSORS = 8;

    private final WaitPhases phases;

    /**
     * A strategy with the defaults: {@value #DEFAULT_SPINS} spins, {@value #DEFAULT_YIELDS}
     * yields, parks of at most {@value #DEFAULT_MAX_PARK_NANOS} ns, deep idle (see the class
     * comment).
     */
    public WakeableIdleStrategy()
    {
        this(DEFAULT_SPINS, 0);
    }

    /**
     * A strategy with these bounds and no deep idle: every park lasts at most {@code maxParkNanos}.
     *
     * @param spins        idle steps that spin before any yield; not negative.
     * @param yields       idle steps that yield before parking; not negative.
     * @param maxParkNanos the longest park, in nanoseconds; positive.
     * @throws IllegalArgumentException if a bound is out of range.
     */
    public WakeableIdleStrategy(final int spins, final int yields, final long maxParkNanos)
    {
        this(spins, 0, yields, maxParkNanos);
    }

    /**
     * A strategy with these bounds and no deep idle: every park lasts at most {@code maxParkNanos}.
     *
     * @param spins        idle steps that spin before any yield; not negative.
     * @param spinNanos    after those, how long to go on spinning before any yield, in
     *                     nanoseconds (the clock is read every 64 steps); 0 for none, not negative.
     * @param yields       idle steps that yield before parking; not negative.
     * @param maxParkNanos the longest park, in nanoseconds; positive.
     * @throws IllegalArgumentException if a bound is out of range.
     */
    public WakeableIdleStrategy(final int spins, final long spinNanos, final int yields, final long maxParkNanos)
    {
        this(spins, spinNanos, yields, maxParkNanos, SystemNanoClock.INSTANCE);
    }

    WakeableIdleStrategy(final int spins, final long spinNanos, final int yields, final long maxParkNanos,
        final NanoClock clock)
    {
        phases = new WaitPhases(new Doorbell(), spins, spinNanos, yields, maxParkNanos, clock);
    }

    private WakeableIdleStrategy(final int spins, final long spinNanos)
    {
        phases = new WaitPhases(new Doorbell(), spins, spinNanos, DEFAULT_YIELDS, DEFAULT_MAX_PARK_NANOS,
            DEEP_IDLE_AFTER_NANOS, DEEP_PARK_NANOS, SystemNanoClock.INSTANCE);
    }

    /**
     * The engine's default for its dispatcher and delivery threads: the defaults of
     * {@link #WakeableIdleStrategy()}, plus {@value #SPARE_CORE_SPIN_NANOS} ns of timed spinning
     * where this JVM has at least {@value #SPARE_CORE_PROCESSORS} available processors, and deep
     * idle (see the class comment). Allocates the strategy.
     *
     * @return a new strategy for one thread.
     */
    public static WakeableIdleStrategy forHandOffs()
    {
        return new WakeableIdleStrategy(DEFAULT_SPINS, handOffSpinNanos(Runtime.getRuntime().availableProcessors()));
    }

    /**
     * @param availableProcessors the processors the JVM may use.
     * @return how long {@link #forHandOffs()} spins for a time on such a machine, in nanoseconds.
     */
    public static long handOffSpinNanos(final int availableProcessors)
    {
        return availableProcessors >= SPARE_CORE_PROCESSORS ? SPARE_CORE_SPIN_NANOS : 0;
    }

    /**
     * @return the doorbell that wakes this strategy's thread while it parks. Any thread.
     */
    public Doorbell doorbell()
    {
        return phases.doorbell();
    }

    /**
     * Sets the work of this strategy's thread that falls due without a ring, which bounds each
     * park; null for none. Call on the owner thread, or before it starts.
     *
     * @param work asked before each park how long the thread may sleep.
     */
    public void dueWork(final DueWork work)
    {
        phases.dueWork(work);
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
