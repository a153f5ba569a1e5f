package io.ringwatch.jmh.isolation;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.WatchRequest;

import java.nio.charset.StandardCharsets;

/**
 * Bytes of heap per idle exact-key watcher: the heap in use after a full GC, before and after
 * opening {@code N} pull watchers on distinct keys no write touches, divided by N. The watchers'
 * handles are kept in an array (4 bytes each with compressed references, included: a user holds
 * them too); the keys and requests are the caller's and are dropped, so only what the engine
 * keeps counts (the watcher keeps the request's key array, which counts; it rebuilds the request
 * itself on {@code request()}). Not a JMH benchmark: a standalone program, run once per size.
 *
 * <p>Figures (JDK 17, compressed oops, G1, -Xmx4g): 138 B per watcher at 1,000,000 (the issue's
 * bound is 150 B), of which the watcher handle 64 B, its key 40 B (a 19-byte key), the route
 * table's two slots 17 B at its load, the shard registry's slot about 7 B and the handles' array
 * 4 B; 157 B at 100,000, where the route table is less full (21 B) and its arrays, humongous
 * objects to G1, round up to whole regions.
 *
 * <pre>
 * java -Xmx4g -cp jmh/target/benchmarks.jar io.ringwatch.jmh.isolation.IdleWatcherFootprint 100000 1000000
 * </pre>
 */
public final class IdleWatcherFootprint
{
    private IdleWatcherFootprint()
    {
    }

    /**
     * @param args the watcher counts to measure, each on a fresh engine; default 100000 and 1000000.
     * @throws InterruptedException if interrupted while waiting for the registrations.
     */
    public static void main(final String[] args) throws InterruptedException
    {
        final String[] sizes = args.length > 0 ? args : new String[] {"100000", "1000000"};
        for (final String size : sizes)
        {
            measure(Integer.parseInt(size));
        }
    }

    private static void measure(final int watchers) throws InterruptedException
    {
        try (RingWatch engine = RingWatch.open())
        {
            final long before = MemoryUse.heapAfterGc();
            final PullWatcher[] handles = new PullWatcher[watchers];
            final long withArray = MemoryUse.heapAfterGc();
            for (int i = 0; i < watchers; i++)
            {
                final byte[] key = String.format("footprint/%09d", i).getBytes(StandardCharsets.US_ASCII);
                handles[i] = engine.watchPull(WatchRequest.of(KeyRange.key(key)));
            }
            while (engine.watcherCount() < watchers)
            {
                Thread.sleep(10);
            }
            final long after = MemoryUse.heapAfterGc();
            System.out.printf("%,d idle exact-key watchers: %,d bytes of heap, %.1f B per watcher " +
                "(%.1f B without the handles' array)%n",
                watchers, after - before, (after - before) / (double)watchers, (after - withArray) / (double)watchers);
            if (handles[watchers - 1].isCancelled())
            {
                throw new IllegalStateException("a watcher was cancelled");
            }
        }
    }
}
