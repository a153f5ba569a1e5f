package io.ringwatch.informer;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Bounded waits for tests: a safety net against hangs, never a measure of speed. A test waits for
 * a condition, then asserts what it needs, so a timeout shows up as the assertion's message.
 */
final class Await
{
    static final Duration PATIENCE = Duration.ofSeconds(20);

    private Await()
    {
    }

    /**
     * @return whether the condition held before the patience ran out.
     */
    static boolean until(final BooleanSupplier condition)
    {
        final long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() - deadline > 0)
            {
                return false;
            }
            try
            {
                Thread.sleep(1);
            }
            catch (final InterruptedException e)
            {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }
}
