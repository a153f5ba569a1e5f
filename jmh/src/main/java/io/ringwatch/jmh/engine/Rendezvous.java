package io.ringwatch.jmh.engine;

import java.util.concurrent.locks.LockSupport;

/**
 * A producer's reusable wait for its own write to be handled, built like the engine's blocking
 * completion (spin {@value #SPINS} times, then park until the handler unparks), so the bare-ring
 * baseline pays the same hand-back cost as the engine's blocking put. The producer thread calls
 * {@link #arm()} and {@link #await()}; the handler thread calls {@link #complete()}. Allocates
 * nothing.
 */
final class Rendezvous
{
    private static final int SPINS = 2_000;

    private volatile boolean done;
    private Thread waiter;

    /**
     * Prepares for one write. Producer thread, before publishing.
     */
    void arm()
    {
        waiter = Thread.currentThread();
        done = false;
    }

    /**
     * Marks the write handled and wakes the producer. Handler thread.
     */
    void complete()
    {
        done = true;
        LockSupport.unpark(waiter);
    }

    /**
     * Waits until {@link #complete()} was called. Producer thread.
     */
    void await()
    {
        for (int i = 0; i < SPINS && !done; i++)
        {
            Thread.onSpinWait();
        }
        while (!done)
        {
            LockSupport.park(this);
        }
    }
}
