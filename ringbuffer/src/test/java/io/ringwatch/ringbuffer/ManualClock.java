package io.ringwatch.ringbuffer;

import org.agrona.concurrent.NanoClock;

/**
 * A clock the test moves by hand, so resize decisions are deterministic.
 */
final class ManualClock implements NanoClock
{
    private volatile long nanos;

    ManualClock(final long startNanos)
    {
        nanos = startNanos;
    }

    void set(final long nanos)
    {
        this.nanos = nanos;
    }

    void advance(final long deltaNanos)
    {
        nanos = nanos + deltaNanos;
    }

    @Override
    public long nanoTime()
    {
        return nanos;
    }
}
