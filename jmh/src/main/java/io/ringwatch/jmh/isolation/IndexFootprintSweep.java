package io.ringwatch.jmh.isolation;

import java.util.function.Consumer;

import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.internal.index.IndexEntry;
import io.ringwatch.engine.internal.index.OffHeapIndex;

/**
 * Memory per key of an {@link OffHeapIndex} alone at every size of a fill, not only at the two sizes
 * {@link KeyFootprint} measures: {@link KeyFootprint}'s keys put one after the other into an index
 * that starts at the engine's default initial capacity, and after every put the index's own count of
 * its direct memory ({@link OffHeapIndex#offHeapBytes}: arena chunks and hash tables, two tables
 * from when the next one is allocated ahead of a growth, at 0.79 full, until the old one has moved
 * into it) divided by the keys. Prints the figure at every {@code step} keys, then, over every key
 * count from {@code step} on, the highest figure while one hash table was held and the highest while
 * two were (the growth's transient, called "moving" below), with the key counts they occurred at. A standalone program, not JMH: it measures bytes, not time.
 *
 * <pre>
 * java $FLAGS -Xmx8g -cp jmh/target/benchmarks.jar io.ringwatch.jmh.isolation.IndexFootprintSweep 500000 12000000
 * </pre>
 */
public final class IndexFootprintSweep
{
    private IndexFootprintSweep()
    {
    }

    /**
     * Fills one index and prints the figures.
     *
     * @param args the step (default 500000) and the last key count (default 12000000).
     */
    public static void main(final String[] args)
    {
        final int step = args.length > 0 ? Integer.parseInt(args[0]) : 500_000;
        final int last = args.length > 1 ? Integer.parseInt(args[1]) : 12_000_000;
        final Sweep sweep = sweep(step, last, System.out::println);
        System.out.println(sweep);
    }

    /**
     * Fills one index to {@code last} keys, handing a line to {@code out} at every {@code step} keys.
     *
     * @param step how often to report, and the first key count the peaks count from; at least 1.
     * @param last the last key count; at least {@code step}.
     * @param out  receives one line per step.
     * @return the peaks.
     * @throws IllegalArgumentException if {@code step} or {@code last} is out of range.
     */
    static Sweep sweep(final int step, final int last, final Consumer<String> out)
    {
        if (step < 1 || last < step)
        {
            throw new IllegalArgumentException("need 1 <= step <= last: " + step + ", " + last);
        }
        final KeyFootprint.Payload payload = new KeyFootprint.Payload();
        final IndexEntry previous = new IndexEntry();
        double settledPeak = 0;
        long settledPeakAt = 0;
        double movingPeak = 0;
        long movingPeakAt = 0;
        long movingPuts = 0;
        try (OffHeapIndex index = new OffHeapIndex(RingWatchConfig.defaults().indexInitialCapacity()))
        {
            for (int i = 0; i < last; i++)
            {
                index.put(payload.key(i), 0, KeyFootprint.KEY_BYTES, payload.value, 0, KeyFootprint.VALUE_BYTES,
                    i + 1L, previous);
                final long keys = i + 1L;
                final double perKey = index.offHeapBytes() / (double)keys;
                final boolean moving = index.holdsTwoHashTables();
                if (keys >= step && moving)
                {
                    movingPuts++;
                    if (perKey > movingPeak)
                    {
                        movingPeak = perKey;
                        movingPeakAt = keys;
                    }
                }
                else if (keys >= step && perKey > settledPeak)
                {
                    settledPeak = perKey;
                    settledPeakAt = keys;
                }
                if (keys % step == 0)
                {
                    out.accept(String.format("%,d keys: %.1f B per key%s", keys, perKey, moving ? " (two hash tables held)" : ""));
                }
            }
        }
        return new Sweep(step, last, settledPeak, settledPeakAt, movingPeak, movingPeakAt, movingPuts);
    }

    /**
     * The peaks of one sweep, over the key counts from {@code from} to {@code last}.
     *
     * @param from          the first key count counted.
     * @param last          the last key count.
     * @param settledPeak   the most bytes per key while one hash table was held.
     * @param settledPeakAt the key count it came at.
     * @param movingPeak    the most bytes per key while two were, the next one prepared or the old
     *                      one moving into it (0 if never).
     * @param movingPeakAt  the key count it came at.
     * @param movingPuts    how many puts ended while two were held.
     */
    record Sweep(
        int from, int last, double settledPeak, long settledPeakAt, double movingPeak, long movingPeakAt, long movingPuts)
    {
        @Override
        public String toString()
        {
            return String.format("from %,d keys on: at most %.1f B per key with one hash table (at %,d keys); at " +
                "most %.1f B per key with two, the next prepared or the old moving (at %,d keys; %,d of %,d puts " +
                "ended with two)",
                from, settledPeak, settledPeakAt, movingPeak, movingPeakAt, movingPuts, last - from + 1L);
        }
    }
}
