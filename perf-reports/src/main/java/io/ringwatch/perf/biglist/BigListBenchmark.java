package io.ringwatch.perf.biglist;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.errors.RingWatchException;
import io.ringwatch.engine.direct.DirectWriter;
import io.ringwatch.engine.direct.WriteCallback;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.RangeResult;
import org.agrona.concurrent.UnsafeBuffer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Issue 17's scenario as a benchmark: {@code --keys} keys under {@code /pods/} with
 * {@code --value-size}-byte values, one producer overwriting them round-robin with
 * {@code DirectWriter.putAsync} as fast as it can, and {@code --reads} consistent reads of the
 * whole prefix meanwhile. Prints reads ok / attempted, each read's time and keys per second, and
 * the writer's throughput (revisions per second) in the same run, alone in slices of
 * {@code --alone-seconds} before each read and after the last, and during the reads: the slices
 * alternate with the reads, so the ratio compares like with like on a machine whose speed drifts;
 * the collections during the reads and their time; then one read with the writer idle, the read's
 * own speed.
 * <p>
 * Run: {@code java <JVM flags> -cp perf-reports/target/ringwatch-perf.jar io.ringwatch.perf.biglist.BigListBenchmark}
 * (see perf-reports/README.md, "Big LIST under load"). One run per JVM, on the main thread plus
 * the producer; allocates the engine, the keys' values and the reads' results.
 */
@Command(name = "biglist", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Loads N keys, then reads the whole prefix consistently while one producer overwrites the keys",
        "flat out; prints reads ok/attempted, read times, keys/s and writer throughput with and without reads."})
public final class BigListBenchmark implements Callable<Integer>
{
    private static final byte[] PREFIX = "/pods/".getBytes(StandardCharsets.US_ASCII);
    private static final int DIGITS = 7;

    @Option(names = "--keys", description = "keys under /pods/. Default: ${DEFAULT-VALUE}")
    private int keys = 1_000_000;

    @Option(names = "--value-size", description = "value bytes (at least 16). Default: ${DEFAULT-VALUE}")
    private int valueSize = 100;

    @Option(names = "--reads", description = "consistent reads of the whole prefix. Default: ${DEFAULT-VALUE}")
    private int reads = 5;

    @Option(names = "--alone-seconds", description = "seconds the writer runs alone before each read and after the last. "
        + "Default: ${DEFAULT-VALUE}")
    private double aloneSeconds = 1;

    @Spec
    private CommandSpec spec;

    /**
     * Runs the benchmark and exits: 0 when every read succeeded, 1 otherwise, 2 for bad options.
     *
     * @param args the command line; {@code --help} lists the options.
     */
    public static void main(final String[] args)
    {
        System.exit(commandLine().execute(args));
    }

    /**
     * Builds the command line. Any thread; allocates the parser.
     *
     * @return the parser, ready to {@code execute}.
     */
    public static CommandLine commandLine()
    {
        final CommandLine commandLine = new CommandLine(new BigListBenchmark());
        commandLine.setExecutionExceptionHandler((e, cmd, parsed) ->
        {
            if (e instanceof IllegalArgumentException)
            {
                cmd.getErr().println("error: " + e.getMessage());
                return CommandLine.ExitCode.USAGE;
            }
            throw e;
        });
        return commandLine;
    }

    /**
     * Loads, measures, prints. Picocli's thread.
     *
     * @return the exit code.
     * @throws InterruptedException if interrupted while the producer stops.
     */
    @Override
    public Integer call() throws InterruptedException
    {
        if (keys < 1 || keys > 10_000_000 || valueSize < 16 || reads < 1 || aloneSeconds <= 0)
        {
            throw new IllegalArgumentException("keys must be 1 to 10,000,000, reads and alone-seconds positive, value-size at least 16");
        }
        final PrintWriter out = spec.commandLine().getOut();
        try (RingWatch engine = RingWatch.open(RingWatchConfig.builder().indexInitialCapacity(keys).build()))
        {
            final long loadStart = System.nanoTime();
            load(engine);
            out.printf("loaded %,d keys of %d-byte values in %.2f s%n", keys, valueSize, seconds(loadStart));
            out.flush();
            final AtomicBoolean stop = new AtomicBoolean();
            final Thread producer = new Thread(() -> overwrite(engine, stop), "producer");
            producer.start();
            int ok = 0;
            try
            {
                final WriterRates rates = new WriterRates();
                long keysRead = 0;
                for (int i = 1; i <= reads; i++)
                {
                    rates.alone(engine, aloneSeconds);
                    rates.readStarts(engine);
                    try
                    {
                        final RangeResult result = engine.range(KeyRange.prefix("/pods/"), 0);
                        final double took = rates.readEnded(engine);
                        ok += result.kvs().size() == keys ? 1 : 0;
                        keysRead += result.kvs().size();
                        out.printf("read %d: %,d keys at revision %,d in %.3f s: %,.0f keys/s%n", i,
                            result.kvs().size(), result.revision(), took, result.kvs().size() / took);
                    }
                    catch (final RingWatchException e)
                    {
                        out.printf("read %d failed after %.3f s: %s%n", i, rates.readEnded(engine), e.getMessage());
                    }
                    out.flush();
                }
                rates.alone(engine, aloneSeconds);
                out.printf("reads ok / attempted: %d / %d; %,.0f keys/s over all reads (%.3f s per read)%n",
                    ok, reads, keysRead / rates.readSeconds(), rates.readSeconds() / reads);
                out.printf("writer alone, between the reads: %,.0f rev/s (slices %,.0f to %,.0f); during the reads: %,.0f rev/s%n",
                    rates.aloneRate(), rates.slowestAlone(), rates.fastestAlone(), rates.duringRate());
                out.printf("writer during reads / alone (slices interleaved with the reads): %.2f%n",
                    rates.duringRate() / rates.aloneRate());
                out.printf("collections during the reads: %d, %d ms (the collectors' MXBeans: G1's young, mixed and full "
                    + "pauses, not its remark and cleanup)%n", rates.collections(), rates.collectionMillis());
            }
            finally
            {
                stop.set(true);
                producer.join();
            }
            final long quietStart = System.nanoTime();
            final RangeResult quiet = engine.range(KeyRange.prefix("/pods/"), 0);
            final double quietSeconds = seconds(quietStart);
            out.printf("one read with the writer idle: %,d keys in %.3f s: %,.0f keys/s%n", quiet.kvs().size(), quietSeconds,
                quiet.kvs().size() / quietSeconds);
            out.flush();
            return ok == reads ? CommandLine.ExitCode.OK : CommandLine.ExitCode.SOFTWARE;
        }
    }

    private static long gcCount()
    {
        long count = 0;
        for (final GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans())
        {
            count += Math.max(collector.getCollectionCount(), 0);
        }
        return count;
    }

    private static long gcMillis()
    {
        long millis = 0;
        for (final GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans())
        {
            millis += Math.max(collector.getCollectionTime(), 0);
        }
        return millis;
    }

    private void load(final RingWatch engine)
    {
        final DirectWriter writer = engine.newDirectWriter();
        final UnsafeBuffer key = new UnsafeBuffer(new byte[32]);
        final UnsafeBuffer value = new UnsafeBuffer(new byte[valueSize]);
        final WriteCallback ignore = new NoCallback();
        for (int k = 0; k < keys; k++)
        {
            writer.putAsync(key, 0, key(key, k), value, 0, value(value, k), ignore);
        }
        writer.put(key, 0, key(key, 0), value, 0, value(value, 0));
    }

    private void overwrite(final RingWatch engine, final AtomicBoolean stop)
    {
        final DirectWriter writer = engine.newDirectWriter();
        final UnsafeBuffer key = new UnsafeBuffer(new byte[32]);
        final UnsafeBuffer value = new UnsafeBuffer(new byte[valueSize]);
        final WriteCallback ignore = new NoCallback();
        for (long j = 0; !stop.get(); j++)
        {
            writer.putAsync(key, 0, key(key, (int)(j % keys)), value, 0, value(value, j), ignore);
        }
    }

    /** Writes {@code /pods/} and k in seven digits, allocating nothing (the producer's hot loop). */
    private static int key(final UnsafeBuffer buffer, final int k)
    {
        buffer.putBytes(0, PREFIX);
        int rest = k;
        for (int i = PREFIX.length + DIGITS - 1; i >= PREFIX.length; i--)
        {
            buffer.putByte(i, (byte)('0' + rest % 10));
            rest /= 10;
        }
        return PREFIX.length + DIGITS;
    }

    private int value(final UnsafeBuffer buffer, final long j)
    {
        buffer.putLong(0, j);
        return valueSize;
    }

    private static double seconds(final long fromNanos)
    {
        return (System.nanoTime() - fromNanos) / 1e9;
    }

    /**
     * The writer's rate alone and during reads, summed over slices that alternate with the reads, so
     * that a machine whose speed drifts during the run (other load, frequency, the heap's state)
     * weighs on both sides alike; and the reads' time and the collections during them. Main thread only.
     */
    private static final class WriterRates
    {
        private long aloneRevisions;
        private double aloneSeconds;
        private long duringRevisions;
        private double duringSeconds;
        private double slowestAlone = Double.MAX_VALUE;
        private double fastestAlone;
        private long collections;
        private long collectionMillis;
        private long readFromRevision;
        private long readFromCollections;
        private long readFromCollectionMillis;
        private long readStartNanos;

        void alone(final RingWatch engine, final double forSeconds) throws InterruptedException
        {
            final long fromRevision = engine.currentRevision();
            final long start = System.nanoTime();
            Thread.sleep((long)(forSeconds * 1000));
            final long revisions = engine.currentRevision() - fromRevision;
            final double took = seconds(start);
            aloneRevisions += revisions;
            aloneSeconds += took;
            slowestAlone = Math.min(slowestAlone, revisions / took);
            fastestAlone = Math.max(fastestAlone, revisions / took);
        }

        void readStarts(final RingWatch engine)
        {
            readFromRevision = engine.currentRevision();
            readFromCollections = gcCount();
            readFromCollectionMillis = gcMillis();
            readStartNanos = System.nanoTime();
        }

        /** @return the read's time in seconds, now counted with the revisions and collections during it. */
        double readEnded(final RingWatch engine)
        {
            final double took = seconds(readStartNanos);
            duringRevisions += engine.currentRevision() - readFromRevision;
            duringSeconds += took;
            collections += gcCount() - readFromCollections;
            collectionMillis += gcMillis() - readFromCollectionMillis;
            return took;
        }

        double aloneRate()
        {
            return aloneRevisions / aloneSeconds;
        }

        double duringRate()
        {
            return duringRevisions / duringSeconds;
        }

        double readSeconds()
        {
            return duringSeconds;
        }

        double slowestAlone()
        {
            return slowestAlone;
        }

        double fastestAlone()
        {
            return fastestAlone;
        }

        long collections()
        {
            return collections;
        }

        long collectionMillis()
        {
            return collectionMillis;
        }
    }

    /** The producer's callback: the benchmark counts revisions, not acknowledgements. */
    private static final class NoCallback implements WriteCallback
    {
        @Override
        public void onWritten(final long revision, final boolean succeeded, final long deleted)
        {
        }

        @Override
        public void onFailed(final RingWatchException error)
        {
        }
    }
}
