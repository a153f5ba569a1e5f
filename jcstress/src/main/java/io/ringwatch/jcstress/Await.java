package io.ringwatch.jcstress;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Bounded waits for the tests' arbiters, so that something that never happens shows up as an outcome ("STUCK",
 * "HUNG"), which jcstress grades FORBIDDEN, instead of a test that never ends.
 * <p>
 * Any thread; allocates nothing.
 */
final class Await
{
    private Await()
    {
    }

    /**
     * Waits until a future is complete, normally or not, or the deadline passes.
     *
     * @param future        the future.
     * @param deadlineNanos the deadline on {@link System#nanoTime()}.
     * @return true if it completed in time.
     */
    static boolean done(final CompletableFuture<?> future, final long deadlineNanos)
    {
        try
        {
            future.get(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
            return true;
        }
        catch (final ExecutionException e)
        {
            return true;
        }
        catch (final TimeoutException e)
        {
            return false;
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Gives other threads the CPU once, unless the deadline has passed.
     *
     * @param deadlineNanos the deadline on {@link System#nanoTime()}.
     * @return true if there is time left.
     */
    static boolean pause(final long deadlineNanos)
    {
        if (System.nanoTime() - deadlineNanos >= 0)
        {
            return false;
        }
        Thread.yield();
        return true;
    }
}
