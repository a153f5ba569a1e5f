package io.ringwatch.perf.load;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts watches that ended before the run did, by reason (lapped, overflowed, a stream error...):
 * each one means the watcher missed events, which a report must show. Thread-safe; each call
 * may allocate (cancellations are rare).
 */
public final class CancellationTally
{
    private final ConcurrentHashMap<String, LongAdder> byReason = new ConcurrentHashMap<>();

    /**
     * @param reason why a watch ended.
     */
    public void add(final String reason)
    {
        byReason.computeIfAbsent(reason, r -> new LongAdder()).increment();
    }

    /**
     * @return a sorted copy: reason to count.
     */
    public Map<String, Long> snapshot()
    {
        final Map<String, Long> copy = new TreeMap<>();
        byReason.forEach((reason, count) -> copy.put(reason, count.sum()));
        return copy;
    }
}
