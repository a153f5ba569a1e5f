package io.ringwatch.perf.load;

import java.time.Duration;

/**
 * How hard and how long to drive a peer. Immutable; thread-safe.
 *
 * @param rate          writes per second, summed over the producers; positive; ignored when saturating.
 * @param warmup        time at the start whose writes are not measured.
 * @param duration      the measured time after the warm-up; positive.
 * @param producers     producer threads; at least 1.
 * @param producerWait  how producers wait for a write's intended time.
 * @param drainTimeout  how long to wait, once the producers are done, for acknowledgements and
 *                      events that stopped coming.
 * @param saturate      true for a closed loop instead of a fixed rate: each producer sends its next
 *                      write as soon as the peer takes it (its own in-flight limit holds it back),
 *                      for warm-up + duration; latency then counts from the actual send. This
 *                      measures the most writes/s a peer sustains, not latency at a given rate.
 */
public record LoadSettings(
    long rate, Duration warmup, Duration duration, int producers, ProducerWait producerWait, Duration drainTimeout,
    boolean saturate)
{
    /**
     * Fixed-rate settings.
     *
     * @param rate         writes per second, summed over the producers; positive.
     * @param warmup       time at the start whose writes are not measured.
     * @param duration     the measured time after the warm-up; positive.
     * @param producers    producer threads; at least 1.
     * @param producerWait how producers wait for a write's intended time.
     * @param drainTimeout how long to wait for acknowledgements and events that stopped coming.
     */
    public LoadSettings(
        final long rate, final Duration warmup, final Duration duration, final int producers,
        final ProducerWait producerWait, final Duration drainTimeout)
    {
        this(rate, warmup, duration, producers, producerWait, drainTimeout, false);
    }

    /**
     * Checks the settings.
     *
     * @throws IllegalArgumentException for a value out of range.
     */
    public LoadSettings
    {
        if (rate <= 0)
        {
            throw new IllegalArgumentException("rate must be positive: " + rate);
        }
        if (warmup == null || warmup.isNegative())
        {
            throw new IllegalArgumentException("warm-up must not be negative: " + warmup);
        }
        if (duration == null || duration.isNegative() || duration.isZero())
        {
            throw new IllegalArgumentException("duration must be positive: " + duration);
        }
        if (producers < 1)
        {
            throw new IllegalArgumentException("producers must be at least 1: " + producers);
        }
        if (producerWait == null)
        {
            throw new IllegalArgumentException("producer wait must not be null");
        }
        if (drainTimeout == null || drainTimeout.isNegative() || drainTimeout.isZero())
        {
            throw new IllegalArgumentException("drain timeout must be positive: " + drainTimeout);
        }
    }

    /**
     * @param newRate another rate.
     * @return a copy with that rate.
     */
    public LoadSettings withRate(final long newRate)
    {
        return new LoadSettings(newRate, warmup, duration, producers, producerWait, drainTimeout, saturate);
    }
}
