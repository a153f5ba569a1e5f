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
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Issue 17's scenario as a benchmark: {@code --keys} keys under {@code /pods/} with
 * {@code --value-size}-byte values, one producer overwriting them round-robin with
 * {@code DirectWriter.putAsync} as fast as it can, and {@code --reads} consistent reads of the
 * whole prefix meanwhile. Prints reads ok / attempted, each read's time and keys per second, and
 * the writer's throughput (revisions per second) in the same run, alone in slices of
 * {@code --alone-seconds} before each read and after the last, and during the reads: the slices
 * alternate with the reads, so the ratio compares like with like on a machine whose speed drifts
 * (after {@code --warmup-reads} reads, not counted, in which the JIT compiles the reader and the heap
 * grows);
 * the collections during the reads and their time; the CPU time of the writer thread per revision
 * in both phases (what the ratio becomes once the writer has a core of its own) and the reader's and
 * producer's CPU during the reads; then one read with the writer idle, the read's own speed.
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

    @Option(names = "--warmup-reads", description = "reads under writes before the measured ones, printed but not counted: "
        + "the JIT compiles the reader and the heap grows to hold a result during them. Default: ${DEFAULT-VALUE}")
    private int warmupReads = 2;

    @Option(names = "--alone-seconds", description = "seconds the writer runs alone before each read and after the last. "
        + "Default: ${DEFAULT-VALUE}")
    private double aloneSeconds = 1;

    @Spec
    private CommandSpec spec;

    private final Consumer<String> phases;

    private BigListBenchmark(final Consumer<String> phases)
    {
        this.phases = phases;
    }

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
        return commandLine(phase -> { });
    }

    /**
     * Builds the command line of a run that announces its phases, for a profiler to split its
     * samples by phase ({@code perf-reports/probes/BigListProfile.java}). Any thread; allocates the
     * parser.
     *
     * @param phases called on the benchmark's thread as each measured phase begins: {@code "alone"}
     *               (a writer-alone slice), {@code "reads"} (a read under writes), {@code "other"}
     *               (anything else: load, summary, the idle read).
     * @return the parser, ready to {@code execute}.
     */
    public static CommandLine commandLine(final Consumer<String> phases)
    {
        final CommandLine commandLine = new CommandLine(new BigListBenchmark(phases));
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
        if (keys < 1 || keys > 10_000_000 || valueSize < 16 || reads < 1 || warmupReads < 0 || aloneSeconds <= 0)
        {
            throw new IllegalArgumentException("keys must be 1 to 10,000,000, reads and alone-seconds positive, warmup-reads "
                + "not negative, value-size at least 16");
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
                for (int i = 1; i <= warmupReads; i++)
                {
                    final long start = System.nanoTime();
                    final RangeResult result = engine.range(KeyRange.prefix("/pods/"), 0);
                    out.printf("warm-up read %d (not counted): %,d keys in %.3f s%n", i, result.kvs().size(), seconds(start));
                    out.flush();
                }
                final WriterRates rates = new WriterRates(new ThreadCpu(producer), phases);
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
                rates.printCpu(out);
            }
            finally
            {
                phases.accept("other");
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
        private final ThreadCpu cpu;
        private final Consumer<String> phases;
        private final long[] aloneCpu = new long[ThreadCpu.THREADS];
        private final long[] duringCpu = new long[ThreadCpu.THREADS];
        private final long[] from = new long[ThreadCpu.THREADS];
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

        WriterRates(final ThreadCpu cpu, final Consumer<String> phases)
        {
            this.cpu = cpu;
            this.phases = phases;
        }

        void alone(final RingWatch engine, final double forSeconds) throws InterruptedException
        {
            phases.accept("alone");
            cpu.sample(from);
            final long fromRevision = engine.currentRevision();
            final long start = System.nanoTime();
            Thread.sleep((long)(forSeconds * 1000));
            final long revisions = engine.currentRevision() - fromRevision;
            final double took = seconds(start);
            cpu.addSince(from, aloneCpu);
            phases.accept("other");
            aloneRevisions += revisions;
            aloneSeconds += took;
            slowestAlone = Math.min(slowestAlone, revisions / took);
            fastestAlone = Math.max(fastestAlone, revisions / took);
        }

        void readStarts(final RingWatch engine)
        {
            phases.accept("reads");
            cpu.sample(from);
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
            cpu.addSince(from, duringCpu);
            phases.accept("other");
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

        /** Prints the threads' CPU: the writer's per revision in both phases, each thread's share of a core. */
        void printCpu(final PrintWriter out)
        {
            final double aloneUs = aloneCpu[ThreadCpu.WRITER] / 1e3 / aloneRevisions;
            final double duringUs = duringCpu[ThreadCpu.WRITER] / 1e3 / duringRevisions;
            out.printf("writer CPU per revision: alone %.3f us, during the reads %.3f us: alone / during %.2f "
                + "(the ratio with a core for each thread)%n", aloneUs, duringUs, aloneUs / duringUs);
            out.printf("cores busy alone: writer %.2f, producer %.2f; during the reads: writer %.2f, producer %.2f, reader %.2f%n",
                aloneCpu[ThreadCpu.WRITER] / 1e9 / aloneSeconds, aloneCpu[ThreadCpu.PRODUCER] / 1e9 / aloneSeconds,
                duringCpu[ThreadCpu.WRITER] / 1e9 / duringSeconds, duringCpu[ThreadCpu.PRODUCER] / 1e9 / duringSeconds,
                duringCpu[ThreadCpu.READER] / 1e9 / duringSeconds);
        }
    }

    /**
     * The CPU time of the engine's writer thread, the producer and the reading (main) thread, from
     * the JVM's thread MXBean. Main thread only.
     */
    private static final class ThreadCpu
    {
        static final int WRITER = 0;
        static final int PRODUCER = 1;
        static final int READER = 2;
        static final int THREADS = 3;

        private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        private final long[] ids = new long[THREADS];

        ThreadCpu(final Thread producer)
        {
            ids[WRITER] = writerId(threads);
            ids[PRODUCER] = producer.getId();
            ids[READER] = Thread.currentThread().getId();
        }

        private static long writerId(final ThreadMXBean threads)
        {
            for (final ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds()))
            {
                if (info != null && info.getThreadName().endsWith("-writer"))
                {
                    return info.getThreadId();
                }
            }
            throw new IllegalStateException("no writer thread (a thread whose name ends in -writer)");
        }

        void sample(final long[] into)
        {
            for (int i = 0; i < THREADS; i++)
            {
                into[i] = threads.getThreadCpuTime(ids[i]);
            }
        }

        void addSince(final long[] from, final long[] sums)
        {
            for (int i = 0; i < THREADS; i++)
            {
                sums[i] += threads.getThreadCpuTime(ids[i]) - from[i];
            }
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
