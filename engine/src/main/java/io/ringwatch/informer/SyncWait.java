package io.ringwatch.informer;

import io.ringwatch.engine.errors.InvalidRequestException;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * The blocking wait behind {@code awaitSynced}: client-go's WaitForCacheSync, by polling a
 * volatile flag with a backoff from 10 µs to 10 ms, so that neither the informer nor its handlers
 * need a notification path for a call made once per start. Any thread; no allocation.
 */
final class SyncWait
{
    private static final long MIN_PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(10);
    private static final long MAX_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private SyncWait()
    {
    }

    /**
     * @param synced  true once synced.
     * @param ended   true once it can never sync (stopped, removed).
     * @param timeout the longest to wait; zero or positive.
     * @return true when synced in time; false when the timeout passed or it ended first.
     * @throws InterruptedException    if the calling thread is interrupted while waiting.
     * @throws InvalidRequestException if the timeout is null or negative.
     */
    static boolean await(final BooleanSupplier synced, final BooleanSupplier ended, final Duration timeout)
        throws InterruptedException
    {
        if (timeout == null || timeout.isNegative())
        {
            throw new InvalidRequestException("timeout must be zero or positive: " + timeout);
        }
        final long deadline = System.nanoTime() + timeout.toNanos();
        long park = MIN_PARK_NANOS;
        while (!synced.getAsBoolean())
        {
            final long left = deadline - System.nanoTime();
            if (left <= 0 || ended.getAsBoolean())
            {
                return synced.getAsBoolean();
            }
            TimeUnit.NANOSECONDS.sleep(Math.min(park, left));
            park = Math.min(park * 2, MAX_PARK_NANOS);
        }
        return true;
    }
}
