package io.ringwatch.jcstress;

import org.agrona.concurrent.NanoClock;

/**
 * A {@link NanoClock} that says whatever time the test last set, so a test decides whether the window's next
 * full append grows it (time standing still: its oldest event is fresh) or shrinks it (time jumped past the
 * freshness: even its newest quarter is stale).
 * <p>
 * Plain field, no ordering of its own: set it only on the thread that builds the jcstress state, before the
 * actors start (jcstress publishes the state to them safely); the window's writer then only reads it.
 * Allocates nothing.
 */
final class SettableNanoClock implements NanoClock
{
    private long nanos;

    /**
     * Sets the time every later {@link #nanoTime()} returns. The state-building thread only.
     *
     * @param nanos the time.
     */
    void set(final long nanos)
    {
        this.nanos = nanos;
    }

    /**
     * The time last set; 0 before any. The window's writer thread.
     *
     * @return nanoseconds.
     */
    @Override
    public long nanoTime()
    {
        return nanos;
    }
}
