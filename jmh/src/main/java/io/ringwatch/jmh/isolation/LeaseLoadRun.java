package io.ringwatch.jmh.isolation;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.lease.Leases;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Issue 15's lease load: what {@code leases} leases with one key each cost the writes beside them,
 * and how much memory a lease takes. One in-memory engine, one run:
 * <ol>
 *   <li>baseline: a writer thread puts unrelated keys at {@code rate} puts per second, timing each
 *       blocking put, for {@code seconds};</li>
 *   <li>it grants the leases (TTL {@code ttl} s) and attaches one key to each, and measures heap and
 *       direct memory after full GCs against before (bytes per lease);</li>
 *   <li>with leases: the same unrelated puts for {@code seconds}, while a keeper thread renews every
 *       live lease every TTL/3 and, each second, abandons 1% of them (they expire a TTL later, each
 *       one revision deleting its key, decided by the engine's lease timer) and grants as many new
 *       leases, each with a fresh key, so the population stays at {@code leases}.</li>
 * </ol>
 * Prints the unrelated puts' p50/p99/p99.9 of both phases, the keep-alives and expiries done, and the
 * memory per lease. Exits with 1 if a phase fell far short of its rate or no lease expired in the
 * second phase. Not a JMH benchmark: a standalone program.
 *
 * <pre>
 * java $FLAGS -Xmx2g -cp jmh/target/benchmarks.jar io.ringwatch.jmh.isolation.LeaseLoadRun [leases ttl seconds rate]
 * </pre>
 * Defaults: 100000 leases, TTL 15 s, 45 s per phase (expiries run from 15 s on), 5000 unrelated puts per second.
 */
public final class LeaseLoadRun
{
    private static final byte[] VALUE = new byte[32];

    private LeaseLoadRun()
    {
    }

    /**
     * Runs both phases and prints the figures.
     *
     * @param args leases, TTL in seconds, seconds per phase, unrelated puts per second.
     * @throws InterruptedException if interrupted.
     */
    public static void main(final String[] args) throws InterruptedException
    {
        final int leases = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        final int ttl = args.length > 1 ? Integer.parseInt(args[1]) : 15;
        final int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 45;
        final int rate = args.length > 3 ? Integer.parseInt(args[3]) : 5_000;
        final Figures figures = run(leases, ttl, seconds, rate);
        System.out.println(figures);
        if (!figures.ok())
        {
            System.exit(1);
        }
    }

    /**
     * @return the figures of one run.
     * @throws InterruptedException if interrupted.
     */
    static Figures run(final int leaseCount, final int ttlSeconds, final int seconds, final int rate)
        throws InterruptedException
    {
        try (RingWatch engine = RingWatch.open(RingWatchConfig.builder().leaseMinTtlSeconds(1).build()))
        {
            final Leases leases = engine.leases();
            final long[] without = unrelatedPuts(engine, "before/", seconds, rate);

            final long heapBefore = MemoryUse.heapAfterGc();
            final long directBefore = MemoryUse.directBytes();
            final long[] ids = new long[leaseCount];
            final int[] generation = new int[leaseCount];
            for (int i = 0; i < leaseCount; i++)
            {
                ids[i] = leases.grant(ttlSeconds).id();
                engine.write(Op.put(leaseKey(i, 0), VALUE).withLease(ids[i]));
            }
            final double heapPerLease = (MemoryUse.heapAfterGc() - heapBefore) / (double)leaseCount;
            final double directPerLease = (MemoryUse.directBytes() - directBefore) / (double)leaseCount;

            final Keeper keeper = new Keeper(engine, leases, ids, generation, ttlSeconds);
            final Thread keeperThread = new Thread(keeper, "lease-keeper");
            keeperThread.start();
            final long[] with = unrelatedPuts(engine, "after/", seconds, rate);
            keeper.running.set(false);
            keeperThread.join();
            return new Figures(leaseCount, ttlSeconds, seconds, rate, without, with, heapPerLease, directPerLease,
                keeper.keepAlives.get(), keeper.replaced, keeper.lost.get());
        }
    }

    /** @return each put's latency in nanoseconds, sorted; one put every 1/rate s on the calling thread. */
    private static long[] unrelatedPuts(final RingWatch engine, final String prefix, final int seconds, final int rate)
    {
        final int total = seconds * rate;
        final long[] latencies = new long[total];
        final long interval = TimeUnit.SECONDS.toNanos(1) / rate;
        final byte[][] keys = new byte[1024][];
        for (int i = 0; i < keys.length; i++)
        {
            keys[i] = (prefix + i).getBytes(StandardCharsets.US_ASCII);
        }
        final long start = System.nanoTime();
        int done = 0;
        for (; done < total; done++)
        {
            final long due = start + done * interval;
            while (System.nanoTime() < due)
            {
                LockSupport.parkNanos(Math.max(1, due - System.nanoTime()) / 2);
            }
            final long before = System.nanoTime();
            engine.put(keys[done & 1023], VALUE);
            latencies[done] = System.nanoTime() - before;
        }
        Arrays.sort(latencies);
        return latencies;
    }

    private static byte[] leaseKey(final int i, final int generation)
    {
        return ("lease/" + i + "/" + generation).getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * Renews every live lease every TTL/3 (asynchronously, at most 256 renewals in flight) and, each second, replaces 1% of them with new leases
     * (fresh keys), abandoning the old ones to expire.
     */
    private static final class Keeper implements Runnable
    {
        final AtomicBoolean running = new AtomicBoolean(true);
        private final RingWatch engine;
        private final Leases leases;
        private final long[] ids;
        private final int[] generation;
        private final int ttlSeconds;
        /** Renewals in flight at most: enough to keep the writer busy, few enough to stay behind no one. */
        private final Semaphore inFlight = new Semaphore(256);
        final AtomicLong keepAlives = new AtomicLong();
        final AtomicLong lost = new AtomicLong();
        long replaced;

        Keeper(final RingWatch engine, final Leases leases, final long[] ids, final int[] generation, final int ttlSeconds)
        {
            this.engine = engine;
            this.leases = leases;
            this.ids = ids;
            this.generation = generation;
            this.ttlSeconds = ttlSeconds;
        }

        @Override
        public void run()
        {
            final int n = ids.length;
            final double renewalsPerMilli = n * 3.0 / (ttlSeconds * 1000.0);
            final int replacePerSecond = Math.max(1, n / 100);
            final long start = System.nanoTime();
            long renewed = 0;
            long replacedSeconds = 0;
            int renewAt = 0;
            int replaceAt = 0;
            while (running.get())
            {
                final long elapsedMillis = (System.nanoTime() - start) / 1_000_000;
                while (renewed < elapsedMillis * renewalsPerMilli && running.get())
                {
                    inFlight.acquireUninterruptibly();
                    leases.keepAliveAsync(ids[renewAt]).whenComplete((ttl, error) ->
                    {
                        if (error == null)
                        {
                            keepAlives.incrementAndGet();
                        }
                        else
                        {
                            lost.incrementAndGet();
                        }
                        inFlight.release();
                    });
                    renewAt = (renewAt + 1) % n;
                    renewed++;
                }
                if (elapsedMillis / 1000 > replacedSeconds)
                {
                    replacedSeconds++;
                    for (int r = 0; r < replacePerSecond; r++)
                    {
                        final int i = replaceAt;
                        replaceAt = (replaceAt + 1) % n;
                        ids[i] = leases.grant(ttlSeconds).id();
                        engine.write(Op.put(leaseKey(i, ++generation[i]), VALUE).withLease(ids[i]));
                        replaced++;
                    }
                }
                LockSupport.parkNanos(1_000_000);
            }
            inFlight.acquireUninterruptibly(256);
        }
    }

    /** What one run measured; latencies sorted, in nanoseconds. */
    record Figures(int leases, int ttlSeconds, int seconds, int rate, long[] without, long[] with,
                   double heapPerLease, double directPerLease, long keepAlives, long replaced, long lost)
    {
        /** @return false when the second phase showed no renewal or replacement (the load did not run). */
        boolean ok()
        {
            return keepAlives > 0 && replaced > 0 && with.length == without.length;
        }

        private static double micros(final long[] sorted, final double quantile)
        {
            return sorted[Math.min(sorted.length - 1, (int)(sorted.length * quantile))] / 1000.0;
        }

        @Override
        public String toString()
        {
            return String.format(Locale.ROOT,
                "%,d leases (TTL %d s, one key each), %,d unrelated puts/s for %d s per phase:%n" +
                "  without leases: put p50 %.1f us, p99 %.1f us, p99.9 %.1f us%n" +
                "  with leases:    put p50 %.1f us, p99 %.1f us, p99.9 %.1f us" +
                " (%,d keep-alives, %,d leases replaced, %,d keep-alives found their lease gone)%n" +
                "  per lease with its key: %.1f B heap, %.1f B direct",
                leases, ttlSeconds, rate, seconds,
                micros(without, 0.5), micros(without, 0.99), micros(without, 0.999),
                micros(with, 0.5), micros(with, 0.99), micros(with, 0.999),
                keepAlives, replaced, lost, heapPerLease, directPerLease);
        }
    }
}
