package io.ringwatch.engine;

import org.agrona.concurrent.IdleStrategy;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The dispatcher's idle strategy: parks 50 µs at a time while open; once closed, the next idle step (the dispatcher
 * found no work) parks until opened. One dispatcher thread idles with it; the test thread closes and opens.
 */
final class DispatcherGate implements IdleStrategy
{
    private volatile CountDownLatch closed;
    private volatile CountDownLatch parked;

    void closeAndAwaitParked()
    {
        parked = new CountDownLatch(1);
        closed = new CountDownLatch(1);
        try
        {
            assertTrue(parked.await(RecordingListener.PATIENCE.toMillis(), TimeUnit.MILLISECONDS), "the dispatcher parked");
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    void open()
    {
        final CountDownLatch gate = closed;
        if (gate != null)
        {
            closed = null;
            gate.countDown();
        }
    }

    @Override
    public void idle(final int workCount)
    {
        if (workCount == 0)
        {
            idle();
        }
    }

    @Override
    public void idle()
    {
        final CountDownLatch gate = closed;
        if (gate == null)
        {
            LockSupport.parkNanos(50_000);
            return;
        }
        parked.countDown();
        try
        {
            gate.await();
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void reset()
    {
    }
}
