package io.ringwatch.persistence;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * Keeps the revision log mapped while a reader is inside it. Readers of the log (watchers catching
 * up, reads at a past revision) run on delivery threads and callers' threads that the engine's
 * close does not join: without the gate, the log's close could unmap a chunk that one of them is
 * copying from, which is a SIGSEGV, not an exception. Each read step enters, copies what it needs
 * out of the mapping and leaves; the close shuts the gate and waits for the readers inside (one
 * step each: no reader waits or calls user code inside) before the log unmaps anything.
 * <p>
 * Threads: any number of readers, one closer. Allocation: none after construction; a step costs
 * two uncontended striped-counter updates and a volatile read.
 */
final class LogReaderGate
{
    private static final long WAIT_NANOS = TimeUnit.MICROSECONDS.toNanos(50);

    private final LongAdder inside = new LongAdder();
    private volatile boolean shut;

    /**
     * @return true if the caller is inside and must {@link #leave()}; false once the log is closing.
     */
    boolean enter()
    {
        inside.increment();
        if (shut)
        {
            inside.decrement();
            return false;
        }
        return true;
    }

    /** Leaves; once for every {@link #enter()} that returned true. */
    void leave()
    {
        inside.decrement();
    }

    /**
     * Refuses every later {@link #enter()} and returns once no reader is inside. Any thread; at
     * most once useful.
     */
    void shutAndAwaitEmpty()
    {
        shut = true;
        while (inside.sum() != 0)
        {
            LockSupport.parkNanos(WAIT_NANOS);
        }
    }
}
