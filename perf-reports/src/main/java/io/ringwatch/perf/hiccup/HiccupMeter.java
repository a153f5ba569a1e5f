package io.ringwatch.perf.hiccup;

import io.ringwatch.perf.DurationConverter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Callable;

/**
 * What the machine itself takes from threads that never block: {@code --threads} threads each spin
 * reading {@link System#nanoTime()} for {@code --duration} and count the gaps between readings over
 * 20 µs, 100 µs, 500 µs, 1 ms and 2 ms. On a dedicated core a gap means the core was taken away
 * (scheduler, hypervisor, interrupts), so these counts are the floor under any latency percentile a
 * pipeline of that many busy threads can reach: at 200,000 writes/s one 2 ms gap in one thread of the
 * pipeline delays about 400 writes. Run it alone; with more spinning threads than cores it measures
 * the scheduler's time slices instead.
 * <p>
 * Run: {@code java -cp perf-reports/target/ringwatch-perf.jar io.ringwatch.perf.hiccup.HiccupMeter --threads 4 --duration 30s}.
 * Main thread, one run per JVM; each spinning thread allocates nothing while it measures.
 */
@Command(name = "hiccups", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Spins threads on the clock and counts the gaps the machine takes from them.")
public final class HiccupMeter implements Callable<Integer>
{
    private static final long[] THRESHOLDS_NANOS = {20_000, 100_000, 500_000, 1_000_000, 2_000_000};
    private static final String[] THRESHOLD_NAMES = {"20us", "100us", "500us", "1ms", "2ms"};

    @Option(names = "--threads", description = "spinning threads (at most the cores). Default: ${DEFAULT-VALUE}")
    private int threads = 1;

    @Option(names = "--duration", converter = DurationConverter.class,
        description = "how long each thread spins (500ms, 30s, 2m). Default: 30s")
    private Duration duration = Duration.ofSeconds(30);

    @Spec
    private CommandSpec spec;

    /**
     * Runs the meter and exits: 0 when done, 2 for bad options.
     *
     * @param args the command line; {@code --help} lists the options.
     */
    public static void main(final String[] args)
    {
        System.exit(commandLine().execute(args));
    }

    /**
     * @return the parser, ready to {@code execute}; options out of range are a usage error (exit 2).
     */
    static CommandLine commandLine()
    {
        return new CommandLine(new HiccupMeter());
    }

    /**
     * Spins the threads, then prints one line per thread: the gaps over each threshold and the
     * longest.
     *
     * @return 0.
     * @throws InterruptedException if interrupted while the threads spin.
     * @throws CommandLine.ParameterException for a thread count below 1 or a duration that is not positive.
     */
    @Override
    public Integer call() throws InterruptedException
    {
        if (threads < 1 || duration.isNegative() || duration.isZero())
        {
            throw new CommandLine.ParameterException(spec.commandLine(),
                "--threads must be at least 1 and --duration positive: " + threads + ", " + duration);
        }
        final GapCounter[] counters = new GapCounter[threads];
        final Thread[] spinners = new Thread[threads];
        final long durationNanos = duration.toNanos();
        for (int t = 0; t < threads; t++)
        {
            final int index = t;
            spinners[t] = new Thread(() -> counters[index] = spin(durationNanos), "hiccup-" + t);
            spinners[t].start();
        }
        for (final Thread spinner : spinners)
        {
            spinner.join();
        }
        final PrintWriter out = spec.commandLine().getOut();
        out.printf("%d thread(s), %s each, %d cores%n", threads, duration, Runtime.getRuntime().availableProcessors());
        for (int t = 0; t < threads; t++)
        {
            final StringBuilder line = new StringBuilder("thread ").append(t).append(':');
            for (int i = 0; i < THRESHOLDS_NANOS.length; i++)
            {
                line.append(" >").append(THRESHOLD_NAMES[i]).append('=').append(counters[t].countOver(i));
            }
            out.println(line.append(String.format(" longest=%.1fus", counters[t].longestNanos() / 1e3)));
        }
        out.flush();
        return 0;
    }

    private static GapCounter spin(final long durationNanos)
    {
        final long start = System.nanoTime();
        final GapCounter counter = new GapCounter(THRESHOLDS_NANOS, start);
        final long end = start + durationNanos;
        long now = start;
        while (now < end)
        {
            now = System.nanoTime();
            counter.observe(now);
        }
        return counter;
    }
}
