package io.ringwatch.jmh.isolation;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

import io.ringwatch.ringbuffer.ChangeRecord;
import io.ringwatch.ringbuffer.EventType;
import io.ringwatch.ringbuffer.WatchWindow;
import io.ringwatch.ringbuffer.WindowConfig;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The window writer's longest appends while a {@link WatchWindow} of the default bounds (1,024 to
 * 131,072 events) grows from empty: events of a 32-byte key and a 64-byte value appended and published
 * one at a time at a steady rate, each append timed in CPU time of the appending thread (so a wait for a
 * core on a shared machine does not count), while a second thread plays the engine's housekeeper every
 * millisecond: {@link WatchWindow#prepareGrowth()}, and with {@code copy} also
 * {@link WatchWindow#copyAhead(int)} (16,384 events a round, as the engine). Prints the five longest
 * appends with the sequence at each (a growth shows as the append at a power of two), and how many took
 * over 1 ms. Run without {@code copy} against a jar that lacks {@code copyAhead}. A standalone program,
 * not JMH.
 *
 * <pre>
 * java $FLAGS -cp jmh/target/benchmarks.jar io.ringwatch.jmh.isolation.WindowGrowthPause 200000 100000 copy
 * </pre>
 */
public final class WindowGrowthPause
{
    private static final int LONGEST = 5;
    private static final long ONE_MS = 1_000_000;
    private static final int KEY_BYTES = 32;
    private static final int VALUE_BYTES = 64;
    private static final int COPY_PER_ROUND = 16_384;

    private WindowGrowthPause()
    {
    }

    /**
     * Appends the events and prints the longest appends.
     *
     * @param args the event count (default 200000), the rate per second (default 100000), and
     *             {@code copy} to copy ahead.
     * @throws InterruptedException if interrupted while waiting for the housekeeper to stop.
     */
    public static void main(final String[] args) throws InterruptedException
    {
        final int events = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        final int rate = args.length > 1 ? Integer.parseInt(args[1]) : 100_000;
        final boolean copy = args.length > 2 && "copy".equals(args[2]);
        System.out.println(measure(events, rate, copy));
    }

    /**
     * Appends {@code events} events at {@code rate} per second, timing each append.
     *
     * @param events how many; at least 1.
     * @param rate   events per second; at least 1.
     * @param copy   whether the housekeeper copies ahead.
     * @return the longest appends.
     * @throws IllegalArgumentException if {@code events} or {@code rate} is below 1.
     * @throws InterruptedException     if interrupted while waiting for the housekeeper to stop.
     */
    static Pauses measure(final int events, final int rate, final boolean copy) throws InterruptedException
    {
        if (events < 1 || rate < 1)
        {
            throw new IllegalArgumentException("need at least one event and a positive rate: " + events + ", " + rate);
        }
        final WatchWindow window = new WatchWindow(WindowConfig.builder().build(), new SystemNanoClock());
        final AtomicBoolean done = new AtomicBoolean();
        final Thread housekeeper = new Thread(() -> keepHouse(window, copy, done), "housekeeper");
        housekeeper.start();
        final UnsafeBuffer key = new UnsafeBuffer(new byte[KEY_BYTES]);
        final UnsafeBuffer value = new UnsafeBuffer(new byte[VALUE_BYTES]);
        final ChangeRecord change = new ChangeRecord();
        final long[] longest = new long[LONGEST];
        final long[] longestAt = new long[LONGEST];
        long overOneMs = 0;
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        final long intervalNanos = 1_000_000_000L / rate;
        final long start = System.nanoTime();
        try
        {
            for (int i = 0; i < events; i++)
            {
                while (System.nanoTime() - start < i * intervalNanos)
                {
                    Thread.onSpinWait();
                }
                final long revision = i + 1L;
                key.putLong(0, revision);
                change.clear();
                change.add(EventType.PUT, key, 0, KEY_BYTES, value, 0, VALUE_BYTES, revision, revision, 1,
                    value, 0, 0, 0, 0, 0);
                final long before = threads.getCurrentThreadCpuTime();
                window.append(revision, change);
                window.publish();
                final long took = threads.getCurrentThreadCpuTime() - before;
                if (took > ONE_MS)
                {
                    overOneMs++;
                }
                IndexGrowthPause.keep(longest, longestAt, took, i);
            }
        }
        finally
        {
            done.set(true);
            housekeeper.join();
        }
        return new Pauses(events, window.capacity(), window.growCount(), overOneMs, longest, longestAt);
    }

    private static void keepHouse(final WatchWindow window, final boolean copy, final AtomicBoolean done)
    {
        while (!done.get())
        {
            window.prepareGrowth();
            if (copy)
            {
                window.copyAhead(COPY_PER_ROUND);
            }
            LockSupport.parkNanos(ONE_MS);
        }
    }

    /**
     * The longest appends of one run.
     *
     * @param events    the event count.
     * @param capacity  the window's capacity at the end.
     * @param growths   how many times it doubled.
     * @param overOneMs how many appends took over 1 ms of CPU.
     * @param longest   the longest appends' CPU times in ns, longest first.
     * @param longestAt the sequence of each of them.
     */
    record Pauses(int events, int capacity, long growths, long overOneMs, long[] longest, long[] longestAt)
    {
        @Override
        public String toString()
        {
            final StringBuilder line = new StringBuilder(String.format(
                "%,d appends, %d growths to %,d, %,d over 1 ms; longest:", events, growths, capacity, overOneMs));
            for (int i = 0; i < longest.length; i++)
            {
                line.append(String.format(" %.2f ms at %,d;", longest[i] / 1e6, longestAt[i]));
            }
            return line.toString();
        }
    }
}
