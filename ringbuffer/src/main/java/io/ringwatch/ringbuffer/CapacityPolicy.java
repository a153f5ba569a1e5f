package io.ringwatch.ringbuffer;

/**
 * The Kubernetes watch cache's resize rule, applied when the window is full and about to evict
 * its oldest event: double (up to the upper bound) if even the oldest event is younger than the
 * freshness duration, since history is being dropped too soon; halve (down to the lower bound)
 * if even the event a quarter of the capacity back from the newest is older than it, since that
 * much history is not needed. Immutable; any thread; no allocation.
 */
final class CapacityPolicy
{
    private final int minCapacity;
    private final int maxCapacity;
    private final long freshnessNanos;

    CapacityPolicy(final WindowConfig config)
    {
        minCapacity = config.minCapacity();
        maxCapacity = config.maxCapacity();
        freshnessNanos = config.freshnessNanos();
    }

    /**
     * @param capacity            current capacity of the full window.
     * @param eventTimeNanos      time of the event about to be appended.
     * @param oldestTimeNanos     time of the oldest event held.
     * @param newestQuarterNanos  time of the event {@code capacity / 4} back from the next one.
     * @return the capacity to resize to; {@code capacity} itself for no resize.
     */
    int capacityWhenFull(
        final int capacity,
        final long eventTimeNanos,
        final long oldestTimeNanos,
        final long newestQuarterNanos)
    {
        if (eventTimeNanos - oldestTimeNanos < freshnessNanos)
        {
            return Math.min(capacity * 2, maxCapacity);
        }
        if (eventTimeNanos - newestQuarterNanos > freshnessNanos)
        {
            return Math.max(capacity / 2, minCapacity);
        }
        return capacity;
    }
}
