package io.ringwatch.perf.peer;

import io.ringwatch.perf.load.LatencyRecorder;
import io.ringwatch.perf.load.Workload;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The Disruptor floor's watchers, gathered by prefix while the run sets up, then turned into a
 * table from key index to the watchers that key matches, so the handler routes an event with one
 * array load. A key matches a watcher when the watcher's prefix is a prefix of the key; a key
 * under nested watched prefixes gets the watchers of each.
 *
 * <p>Main thread only, before the run; allocates freely. Keys that match exactly one prefix share
 * that prefix's array, so the table holds one array per watched prefix plus a reference per key.
 */
final class WatcherRoutes
{
    private static final LatencyRecorder[] NONE = new LatencyRecorder[0];

    private final Map<ByteBuffer, List<LatencyRecorder>> byPrefix = new HashMap<>();
    private final TreeSet<Integer> prefixLengths = new TreeSet<>();

    /**
     * Adds one watcher.
     *
     * @param prefix     the keys it watches; copied.
     * @param deliveries where its events' latencies go.
     */
    void add(final byte[] prefix, final LatencyRecorder deliveries)
    {
        byPrefix.computeIfAbsent(ByteBuffer.wrap(prefix.clone()), p -> new ArrayList<>()).add(deliveries);
        prefixLengths.add(prefix.length);
    }

    /**
     * @param workload the keys.
     * @return for each key index, one entry per watcher the key matches (shared arrays: do not
     * modify them).
     */
    LatencyRecorder[][] byKey(final Workload workload)
    {
        final Map<ByteBuffer, LatencyRecorder[]> frozen = new HashMap<>();
        byPrefix.forEach((prefix, watchers) -> frozen.put(prefix, watchers.toArray(NONE)));
        final LatencyRecorder[][] table = new LatencyRecorder[workload.keyCount()][];
        final List<LatencyRecorder[]> matched = new ArrayList<>();
        for (int k = 0; k < table.length; k++)
        {
            final byte[] key = workload.key(k);
            matched.clear();
            for (final int length : prefixLengths)
            {
                final LatencyRecorder[] watchers = length <= key.length ? frozen.get(ByteBuffer.wrap(key, 0, length)) : null;
                if (watchers != null)
                {
                    matched.add(watchers);
                }
            }
            table[k] = matched.isEmpty() ? NONE : matched.size() == 1 ? matched.get(0) : concat(matched);
        }
        return table;
    }

    private static LatencyRecorder[] concat(final List<LatencyRecorder[]> parts)
    {
        final List<LatencyRecorder> all = new ArrayList<>();
        for (final LatencyRecorder[] part : parts)
        {
            all.addAll(List.of(part));
        }
        return all.toArray(NONE);
    }
}
