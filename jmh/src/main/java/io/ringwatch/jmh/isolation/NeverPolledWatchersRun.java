package io.ringwatch.jmh.isolation;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.WatchCancellation;
import io.ringwatch.engine.watch.WatchRequest;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * What never-polled pull watchers cost the writer: blocking puts at a fixed rate into one prefix,
 * first with no watcher (the baseline, same run), then with {@code watchers} pull watchers on that
 * prefix that nobody ever polls. Put latency counts from each put's intended time (start + i /
 * rate), so a stall cannot hide the puts it delayed. Prints put p50/p99/p99.9/max for both runs,
 * the heap in use after a full GC at the end of each (the engine still open, its watchers alive)
 * and how the watchers ended. Not a JMH benchmark: a standalone program.
 *
 * <pre>
 * java -Xmx2g -cp jmh/target/benchmarks.jar io.ringwatch.jmh.isolation.NeverPolledWatchersRun \
 *     [watchers=10000] [rate=5000] [seconds=60]
 * </pre>
 */
public final class NeverPolledWatchersRun
{
    private static final int KEYS = 1000;

    private NeverPolledWatchersRun()
    {
    }

    /**
     * @param args watchers, writes per second, measured seconds; defaults 10000, 5000, 60.
     * @throws InterruptedException if interrupted.
     */
    public static void main(final String[] args) throws InterruptedException
    {
        final int watchers = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        final int rate = args.length > 1 ? Integer.parseInt(args[1]) : 5_000;
        final int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 60;
        run("without watchers", 0, rate, seconds);
        run("with " + watchers + " never-polled pull watchers", watchers, rate, seconds);
    }

    private static void run(final String name, final int watchers, final int rate, final int seconds)
        throws InterruptedException
    {
        try (RingWatch engine = RingWatch.open(RingWatchConfig.defaults()))
        {
            final PullWatcher[] idle = new PullWatcher[watchers];
            for (int i = 0; i < watchers; i++)
            {
                idle[i] = engine.watchPull(WatchRequest.of(KeyRange.prefix("idle/")));
            }
            final byte[][] keys = new byte[KEYS][];
            for (int i = 0; i < KEYS; i++)
            {
                keys[i] = ("idle/" + i).getBytes(StandardCharsets.US_ASCII);
            }
            final byte[] value = new byte[64];
            final int writes = rate * seconds;
            final long[] latencies = new long[writes];
            final long intervalNanos = TimeUnit.SECONDS.toNanos(1) / rate;
            final long start = System.nanoTime();
            for (int i = 0; i < writes; i++)
            {
                final long intended = start + i * intervalNanos;
                long now;
                while ((now = System.nanoTime()) < intended)
                {
                    LockSupport.parkNanos(intended - now);
                }
                engine.put(keys[i % KEYS], value);
                latencies[i] = System.nanoTime() - intended;
            }
            final long heap = heapAfterGc();
            final Map<String, Integer> endings = new TreeMap<>();
            for (final PullWatcher watcher : idle)
            {
                final WatchCancellation cancellation = watcher.cancellation();
                endings.merge(cancellation == null ? "running" : cancellation.reason().name(), 1, Integer::sum);
            }
            Arrays.sort(latencies);
            System.out.printf("%s: %,d puts at %,d/s: put p50 %s, p99 %s, p99.9 %s, max %s; heap after GC %,d MB; " +
                "watchers %s%n", name, writes, rate, micros(latencies, 0.50), micros(latencies, 0.99),
                micros(latencies, 0.999), micros(latencies, 1.0), heap >> 20, endings);
        }
    }

    private static String micros(final long[] sorted, final double quantile)
    {
        final int index = (int)Math.min(sorted.length - 1, Math.ceil(quantile * sorted.length) - 1);
        return String.format("%,.0f µs", sorted[Math.max(0, index)] / 1000.0);
    }

    private static long heapAfterGc() throws InterruptedException
    {
        final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        for (int i = 0; i < 3; i++)
        {
            System.gc();
            Thread.sleep(50);
        }
        return memory.getHeapMemoryUsage().getUsed();
    }
}
