package io.ringwatch.engine.idle;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * Left padding of {@link Doorbell}: 120 bytes between the object header and {@code sleeper}.
 */
abstract class DoorbellLeftPadding
{
    protected long p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
}

/**
 * The armed thread, between the two paddings.
 */
abstract class DoorbellSleeper extends DoorbellLeftPadding
{
    protected volatile Thread sleeper;
}

/**
 * Right padding of {@link Doorbell}: 120 bytes after {@code sleeper}.
 */
abstract class DoorbellRightPadding extends DoorbellSleeper
{
    protected long q01, q02, q03, q04, q05, q06, q07, q08, q09, q10, q11, q12, q13, q14, q15;
}

/**
 * Wakes one consumer thread that parked for lack of work, when another thread hands it work.
 * Timed parking alone makes every hand-off to an idle thread wait for the park to run out
 * (tens of microseconds to a millisecond); spinning or yielding instead takes a core, which a
 * machine with fewer cores than busy threads cannot spare. A doorbell gives a parked consumer
 * the latency of a wake-up (a few microseconds) and costs a producer a fence and one read while
 * the consumer is awake.
 * <p>
 * Protocol. The owner (the one consumer thread) {@link #arm() arms} the doorbell, then checks
 * once more for work, and only if there is none {@link #park(long) parks}. A producer makes its
 * work visible, then {@link #ring() rings}. A full fence on each side, after the owner's store of
 * itself and after the producer's store of its work, makes the two a Dekker pair: either the
 * owner's last check sees the work or the producer sees the owner armed and unparks it, so no
 * wake-up is lost (jcstress: {@code DoorbellStress}). A ring disarms the
 * doorbell, so of many producers only the first pays for the unpark; the owner re-arms before
 * it parks again.
 * <p>
 * Padded like {@link io.ringwatch.ringbuffer.PaddedSequence}: producers on other cores read
 * {@code sleeper} on every hand-off. Threading: {@code arm}, {@code disarm} and {@code park}
 * on the owner thread only; {@code ring} from any thread. Allocation: none after construction.
 */
public final class Doorbell extends DoorbellRightPadding
{
    private static final VarHandle SLEEPER;

    static
    {
        try
        {
            SLEEPER = MethodHandles.lookup().findVarHandle(DoorbellSleeper.class, "sleeper", Thread.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    /**
     * Announces that the calling thread is about to park. The caller must check for work after
     * this call and before {@link #park(long)}. Owner thread; no allocation.
     */
    public void arm()
    {
        sleeper = Thread.currentThread();
        // The caller's re-check may be an acquire load, which may not pass a volatile store
        // only with a full fence between them.
        VarHandle.fullFence();
    }

    /**
     * Withdraws an announcement: the owner found work and will not park. Owner thread; no
     * allocation.
     */
    public void disarm()
    {
        if (sleeper != null)
        {
            sleeper = null;
        }
    }

    /**
     * @return whether the owner is armed and no producer has rung since. Any thread.
     */
    public boolean isArmed()
    {
        return sleeper != null;
    }

    /**
     * Parks the owner until a producer rings, the timeout passes, or the thread is interrupted
     * or spuriously woken. The caller checks for work after it returns, and re-arms before it
     * parks again. Owner thread; no allocation.
     *
     * @param timeoutNanos the longest park, in nanoseconds; positive.
     */
    public void park(final long timeoutNanos)
    {
        LockSupport.parkNanos(this, timeoutNanos);
    }

    /**
     * Wakes the owner if it is armed. Call after making the work visible (any store: the full
     * fence here orders it before the read of the owner's state). Any thread; no allocation; an
     * unpark system call only when the owner is armed.
     *
     * @return true if this call woke the owner.
     */
    public boolean ring()
    {
        VarHandle.fullFence();
        return ringAfterFence();
    }

    /**
     * {@link #ring()} without its fence, for a producer that wakes several consumers: it makes
     * its work visible, issues one {@link VarHandle#fullFence()}, then calls this on each
     * doorbell. Without that fence a wake-up can be lost. Any thread; no allocation.
     *
     * @return true if this call woke the owner.
     */
    public boolean ringAfterFence()
    {
        final Thread armed = sleeper;
        if (armed != null && SLEEPER.compareAndSet(this, armed, null))
        {
            LockSupport.unpark(armed);
            return true;
        }
        return false;
    }
}
