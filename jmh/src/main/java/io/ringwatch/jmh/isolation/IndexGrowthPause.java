package io.ringwatch.jmh.isolation;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.internal.index.IndexEntry;
import io.ringwatch.engine.internal.index.OffHeapIndex;

/**
 * The writer's longest pauses while an {@link OffHeapIndex} grows: {@link KeyFootprint}'s keys put one
 * after the other into an index that starts at the engine's default initial capacity, each put timed
 * with {@code System.nanoTime}; prints the five longest puts with the key count at each (a hash table
 * growth shows as the put that triggers it, or, moved a step per write, as none), and how many puts
 * took over 1 ms. Wall time, so on a shared machine a put may also measure a wait for a core: repeat it
 * and compare the longest puts of two builds run one after the other. Uses only the index's public
 * writes, so it runs against older builds' jars as well. A standalone program, not JMH.
 *
 * <pre>
 * java $FLAGS -Xmx8g -cp jmh/target/benchmarks.jar io.ringwatch.jmh.isolation.IndexGrowthPause 8000000
 * </pre>
 */
public final class IndexGrowthPause
{
    private static final int LONGEST = 5;
    private static final long ONE_MS = 1_000_000;

    private IndexGrowthPause()
    {
    }

    /**
     * Fills one index and prints the longest puts.
     *
     * @param args the key count (default 8000000).
     */
    public static void main(final String[] args)
    {
        System.out.println(measure(args.length > 0 ? Integer.parseInt(args[0]) : 8_000_000));
    }

    /**
     * Fills one index with {@code keys} keys, timing each put.
     *
     * @param keys how many keys; at least 1.
     * @return the longest puts.
     * @throws IllegalArgumentException if {@code keys} is below 1.
     */
    static Pauses measure(final int keys)
    {
        if (keys < 1)
        {
            throw new IllegalArgumentException("need at least one key: " + keys);
        }
        final KeyFootprint.Payload payload = new KeyFootprint.Payload();
        final IndexEntry previous = new IndexEntry();
        final long[] longest = new long[LONGEST];
        final long[] longestAt = new long[LONGEST];
        long overOneMs = 0;
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        try (OffHeapIndex index = new OffHeapIndex(RingWatchConfig.defaults().indexInitialCapacity()))
        {
            for (int i = 0; i < keys; i++)
            {
                final long start = threads.getCurrentThreadCpuTime();
                index.put(payload.key(i), 0, KeyFootprint.KEY_BYTES, payload.value, 0, KeyFootprint.VALUE_BYTES,
                    i + 1L, previous);
                final long took = threads.getCurrentThreadCpuTime() - start;
                if (took > ONE_MS)
                {
                    overOneMs++;
                }
                keep(longest, longestAt, took, i + 1L);
            }
        }
        return new Pauses(keys, overOneMs, longest, longestAt);
    }

    /**
     * The longest puts of one fill.
     *
     * @param keys      the key count.
     * @param overOneMs how many puts took over 1 ms of CPU.
     * @param longest   the longest puts' CPU times in ns, longest first.
     * @param longestAt the key count after each of them.
     */
    record Pauses(int keys, long overOneMs, long[] longest, long[] longestAt)
    {
        @Override
        public String toString()
        {
            final StringBuilder line = new StringBuilder(String.format("%,d puts, %,d over 1 ms; longest:", keys, overOneMs));
            for (int i = 0; i < longest.length; i++)
            {
                line.append(String.format(" %.2f ms at %,d keys;", longest[i] / 1e6, longestAt[i]));
            }
            return line.toString();
        }
    }

    /** Keeps the longest times in descending order, each with the key count (or sequence) it came at. */
    static void keep(final long[] longest, final long[] longestAt, final long took, final long at)
    {
        int i = longest.length;
        while (i > 0 && took > longest[i - 1])
        {
            i--;
        }
        if (i == longest.length)
        {
            return;
        }
        System.arraycopy(longest, i, longest, i + 1, longest.length - i - 1);
        System.arraycopy(longestAt, i, longestAt, i + 1, longestAt.length - i - 1);
        longest[i] = took;
        longestAt[i] = at;
    }
}
