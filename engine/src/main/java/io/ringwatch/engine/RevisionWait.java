package io.ringwatch.engine;

import io.ringwatch.engine.errors.InvalidRequestException;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

import io.ringwatch.engine.internal.write.RevisionCursor;

/**
 * Waits until the writer has applied a revision (read your writes; the Kubernetes watch cache's
 * waitUntilFreshAndBlock), polling the applied revision with a back-off from 1 µs to 1 ms so a
 * short wait is short and a long one costs little CPU.
 *
 * <p>Any thread, many at once; allocation: none.
 */
final class RevisionWait
{
    private static final long FIRST_PARK_NANOS = 1_000;
    private static final long LONGEST_PARK_NANOS = 1_000_000;

    private final RevisionCursor cursor;

    /**
     * @param cursor the writer's applied revision.
     */
    RevisionWait(final RevisionCursor cursor)
    {
        this.cursor = cursor;
    }

    /**
     * @param revision the revision to wait for; not negative.
     * @param timeout  the longest to wait; zero or positive.
     * @return true when it was applied in time.
     * @throws InvalidRequestException if an argument is out of range.
     */
    boolean await(final long revision, final Duration timeout)
    {
        if (revision < 0)
        {
            throw new InvalidRequestException("revision must not be negative: " + revision);
        }
        if (timeout == null || timeout.isNegative())
        {
            throw new InvalidRequestException("timeout must be zero or positive: " + timeout);
        }
        final long deadline = System.nanoTime() + timeout.toNanos();
        long parkNanos = FIRST_PARK_NANOS;
        while (cursor.applied() < revision)
        {
            final long remaining = deadline - System.nanoTime();
            if (remaining <= 0)
            {
                return false;
            }
            LockSupport.parkNanos(Math.min(parkNanos, remaining));
            parkNanos = Math.min(parkNanos * 2, LONGEST_PARK_NANOS);
        }
        return true;
    }
}
