package io.ringwatch.engine.idle;

import com.lmax.disruptor.AlertException;
import com.lmax.disruptor.Sequence;
import com.lmax.disruptor.SequenceBarrier;
import com.lmax.disruptor.WaitStrategy;
import org.agrona.concurrent.SystemNanoClock;

import java.util.concurrent.atomic.AtomicReference;

/**
 * A Disruptor wait strategy for a ring with ONE consumer thread (the engine's writer): it spins,
 * then yields, then parks on a {@link Doorbell} that every publish rings, with the same steps as
 * {@link WakeableIdleStrategy}. By default it yields {@value #DEFAULT_YIELDS} time before it arms
 * the doorbell (the hand-off threads' default yields none): see {@link #DEFAULT_YIELDS}.
 * Against the Disruptor's {@code BlockingWaitStrategy}, whose every
 * publish takes a monitor and notifies: a publish costs a fence and one read while the consumer
 * is awake, and an unpark only when it is parked. Against {@code LiteBlockingWaitStrategy}: no
 * lock on either side. A halt (the Disruptor's alert) rings it too.
 * <p>
 * Threading: {@code waitFor} on the one consumer thread (a second one is refused, since the
 * doorbell wakes only one); {@code signalAllWhenBlocking} from any producer. Allocation: none
 * after construction.
 */
public final class WakeableWaitStrategy implements WaitStrategy
{
    /**
     * Yields before parking, by default, after {@link WakeableIdleStrategy#DEFAULT_SPINS} spins.
     * When the writer catches up with its producers on a machine whose cores are all busy (a
     * producer, the writer, a dispatcher and a delivery thread on two cores), the yield hands its
     * core to a thread that makes the writer's next work (a producer, or the watch path a paced
     * producer waits for), and the writer is usually still unarmed when that work is published:
     * neither the writer's park nor the producer's unpark, about 10 µs of CPU each on the 2-core VM.
     * Parking after the spins alone, the writer parked after nearly every batch (60 to 100 puts)
     * and the pipeline took 1.2 to 2.5 times the CPU per put (jmh/README.md, "The writer yields
     * once before it parks"). One, not more: a yielding thread is runnable but behind the others, so it
     * sees work published meanwhile only when it gets a core back; five yields looked slower where
     * the busy threads are not the writer's producers (1,000-watcher fan-out). Where no other thread
     * is runnable a yield returns at once, so an idle writer parks about a microsecond later.
     */
    public static final int DEFAULT_YIELDS = 1;

    private final WaitPhases phases;
    private final AtomicReference<Thread> consumer = new AtomicReference<>();

    /**
     * The engine's default writer wait: {@link WakeableIdleStrategy}'s default spins, longest
     * park and deep idle, and {@value #DEFAULT_YIELDS} yields before parking ({@link #DEFAULT_YIELDS}).
     */
    public WakeableWaitStrategy()
    {
        // Deep idle as WakeableIdleStrategy's default: every publish and a halt ring, and the
        // writer's ring wait has no other work to fall due.
        phases = new WaitPhases(new Doorbell(), WakeableIdleStrategy.DEFAULT_SPINS, 0, DEFAULT_YIELDS,
            WakeableIdleStrategy.DEFAULT_MAX_PARK_NANOS, WakeableIdleStrategy.DEEP_IDLE_AFTER_NANOS,
            WakeableIdleStrategy.DEEP_PARK_NANOS, SystemNanoClock.INSTANCE);
    }

    /**
     * A wait with these bounds and no deep idle: every park lasts at most {@code maxParkNanos}.
     *
     * @param spins        wait steps that spin before any yield; not negative.
     * @param yields       wait steps that yield before parking; not negative.
     * @param maxParkNanos the longest park, in nanoseconds; positive.
     * @throws IllegalArgumentException if a bound is out of range.
     */
    public WakeableWaitStrategy(final int spins, final int yields, final long maxParkNanos)
    {
        phases = new WaitPhases(new Doorbell(), spins, 0, yields, maxParkNanos, SystemNanoClock.INSTANCE);
    }

    /**
     * Waits until {@code dependentSequence} reaches {@code sequence}. Consumer thread.
     *
     * @return the dependent sequence's value, at least {@code sequence}.
     * @throws AlertException        if the barrier is alerted (the ring is halting).
     * @throws IllegalStateException if a second consumer thread waits on this strategy.
     */
    @Override
    public long waitFor(final long sequence, final Sequence cursor, final Sequence dependentSequence,
        final SequenceBarrier barrier) throws AlertException
    {
        long available = dependentSequence.get();
        if (available >= sequence)
        {
            return available;
        }
        requireOneConsumer();
        try
        {
            while ((available = dependentSequence.get()) < sequence)
            {
                barrier.checkAlert();
                phases.step();
            }
            return available;
        }
        finally
        {
            // Also after an alert: the next wait starts spinning, and the doorbell is not left armed.
            phases.reset();
        }
    }

    /**
     * Wakes the consumer if it parks: called by the ring after every publish. Any thread.
     */
    @Override
    public void signalAllWhenBlocking()
    {
        phases.doorbell().ring();
    }

    /** @return the doorbell every publish rings; for tests in this package. */
    Doorbell doorbell()
    {
        return phases.doorbell();
    }

    private void requireOneConsumer()
    {
        final Thread current = Thread.currentThread();
        if (consumer.get() != current && !consumer.compareAndSet(null, current))
        {
            throw new IllegalStateException("WakeableWaitStrategy serves one consumer thread: " + consumer.get().getName() +
                " already waits on it, " + current.getName() + " may not");
        }
    }

    @Override
    public String toString()
    {
        return "WakeableWaitStrategy{" + phases.describe() + '}';
    }
}
