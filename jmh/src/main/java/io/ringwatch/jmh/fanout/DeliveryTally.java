package io.ringwatch.jmh.fanout;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The events delivered to a group of watchers, summed: what the producer reads to bound the writes in
 * flight and what the benchmarks report as delivered events. Delivery threads add; any thread reads.
 * Allocates nothing after construction.
 */
final class DeliveryTally
{
    private final AtomicLong total = new AtomicLong();

    /**
     * Adds one delivery of {@code events} events. Any thread; allocates nothing.
     *
     * @param events the events delivered.
     */
    void add(final int events)
    {
        total.addAndGet(events);
    }

    /**
     * @return the events delivered so far. Any thread.
     */
    long total()
    {
        return total.get();
    }
}
