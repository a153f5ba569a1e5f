package io.ringwatch.jmh.isolation;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;

import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.internal.index.IndexEntry;
import io.ringwatch.engine.internal.index.OffHeapIndex;

/**
 * CPU time per operation of an {@link OffHeapIndex} alone, with {@link KeyFootprint}'s keys
 * ({@value KeyFootprint#KEY_BYTES}-byte keys, {@value KeyFootprint#VALUE_BYTES}-byte values): N
 * inserts into an index that starts at the engine's default initial capacity (so every hash table
 * rebuild on the way to N keys is counted), then N point reads of present keys and N of absent keys,
 * then N in-place updates, each in a scattered order. Measured as the thread's CPU time
 * ({@code ThreadMXBean}), not wall time: on a shared machine whose other work takes the cores, the
 * wall time mostly measures the wait for a core. Each round builds a fresh index; the first round
 * warms the JIT and is left out. Not a JMH benchmark (JMH times wall clock); a standalone program.
 *
 * <pre>
 * java $FLAGS -Xmx4g -cp jmh/target/benchmarks.jar io.ringwatch.jmh.isolation.IndexOpCost 1000000 5
 * </pre>
 */
public final class IndexOpCost
{
    private static final long SCATTER = 2_654_435_761L;

    private IndexOpCost()
    {
    }

    /**
     * Runs the rounds and prints one line per round, then the median of each figure.
     *
     * @param args the key count (default 1000000) and the rounds (default 5, at least 2).
     */
    public static void main(final String[] args)
    {
        final int keys = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        final int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        final double[][] figures = new double[rounds - 1][];
        for (int round = 0; round < rounds; round++)
        {
            final double[] costs = measure(keys);
            System.out.println(String.format("round %d: %s", round, describe(costs)));
            if (round > 0)
            {
                figures[round - 1] = costs;
            }
        }
        final double[] medians = new double[4];
        for (int figure = 0; figure < medians.length; figure++)
        {
            final double[] values = new double[figures.length];
            for (int round = 0; round < figures.length; round++)
            {
                values[round] = figures[round][figure];
            }
            Arrays.sort(values);
            medians[figure] = values[values.length / 2];
        }
        System.out.println(String.format("%,d keys, median of %d rounds: %s", keys, figures.length, describe(medians)));
    }

    /**
     * Fills a fresh index and times each phase.
     *
     * @param keys how many keys, at least 1.
     * @return CPU nanoseconds per insert, present read, absent read and in-place update.
     */
    static double[] measure(final int keys)
    {
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        final KeyFootprint.Payload payload = new KeyFootprint.Payload();
        final IndexEntry entry = new IndexEntry();
        long found = 0;
        try (OffHeapIndex index = new OffHeapIndex(RingWatchConfig.defaults().indexInitialCapacity()))
        {
            final long start = threads.getCurrentThreadCpuTime();
            for (int i = 0; i < keys; i++)
            {
                index.put(payload.key(i), 0, KeyFootprint.KEY_BYTES, payload.value, 0, KeyFootprint.VALUE_BYTES, i + 1L, entry);
            }
            final long inserted = threads.getCurrentThreadCpuTime();
            for (int i = 0; i < keys; i++)
            {
                found += index.get(payload.key(scattered(i, keys)), 0, KeyFootprint.KEY_BYTES, entry) ? 1 : 0;
            }
            final long readPresent = threads.getCurrentThreadCpuTime();
            for (int i = 0; i < keys; i++)
            {
                found += index.get(payload.key(keys + scattered(i, keys)), 0, KeyFootprint.KEY_BYTES, entry) ? 1 : 0;
            }
            final long readAbsent = threads.getCurrentThreadCpuTime();
            for (int i = 0; i < keys; i++)
            {
                index.put(payload.key(scattered(i, keys)), 0, KeyFootprint.KEY_BYTES, payload.value, 0,
                    KeyFootprint.VALUE_BYTES, keys + i + 1L, entry);
            }
            final long updated = threads.getCurrentThreadCpuTime();
            if (found != keys || index.size() != keys)
            {
                throw new IllegalStateException("read " + found + " of " + keys + " keys; the index holds " + index.size());
            }
            return new double[] {
                (inserted - start) / (double)keys,
                (readPresent - inserted) / (double)keys,
                (readAbsent - readPresent) / (double)keys,
                (updated - readAbsent) / (double)keys};
        }
    }

    private static int scattered(final int i, final int keys)
    {
        return (int)(i * SCATTER % keys);
    }

    private static String describe(final double[] costs)
    {
        return String.format("insert %.0f ns, read present %.0f ns, read absent %.0f ns, update in place %.0f ns (CPU per op)",
            costs[0], costs[1], costs[2], costs[3]);
    }
}
