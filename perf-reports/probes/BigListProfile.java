import io.ringwatch.perf.biglist.BigListBenchmark;
import one.profiler.AsyncProfiler;
import one.profiler.Counter;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * BigListBenchmark under async-profiler, its samples split by phase: OUTDIR/alone.collapsed (the
 * writer-alone slices) and OUTDIR/reads.collapsed (the reads under writes), collapsed stacks with
 * the thread as the first frame, summed over every slice of each phase. Run from the repository
 * root with the JVM flags of perf-reports/README.md:
 *
 * <pre>
 * java $FLAGS -Xmx8g -cp perf-reports/target/ringwatch-perf.jar:/tmp/ap perf-reports/probes/BigListProfile.java \
 *   /tmp/ap/linux-x64/libasyncProfiler.so OUTDIR --reads 10
 * </pre>
 *
 * /tmp/ap holds async-profiler's Java API classes (one/profiler/*.class, from its jar); the
 * arguments after OUTDIR are the benchmark's. Profiles with event=itimer, interval=1ms: a sample
 * is about 1 ms of one thread's CPU.
 */
public final class BigListProfile
{
    private static final String EVENT = "start,event=itimer,interval=1ms,threads";

    private final AsyncProfiler profiler;
    private final Map<String, Map<String, Long>> byPhase = new TreeMap<>();
    private String current = "other";

    private BigListProfile(final AsyncProfiler profiler)
    {
        this.profiler = profiler;
    }

    public static void main(final String[] args) throws IOException
    {
        final BigListProfile profile = new BigListProfile(AsyncProfiler.getInstance(args[0]));
        final Path dir = Path.of(args[1]);
        Files.createDirectories(dir);
        final String[] rest = java.util.Arrays.copyOfRange(args, 2, args.length);
        final int exit = BigListBenchmark.commandLine(profile::phase).execute(rest);
        profile.phase("other");
        for (final Map.Entry<String, Map<String, Long>> phase : profile.byPhase.entrySet())
        {
            final StringBuilder text = new StringBuilder();
            phase.getValue().forEach((stack, samples) -> text.append(stack).append(' ').append(samples).append('\n'));
            Files.writeString(dir.resolve(phase.getKey() + ".collapsed"), text);
        }
        System.exit(exit);
    }

    private void phase(final String next)
    {
        if (next.equals(current))
        {
            return;
        }
        try
        {
            if (!current.equals("other"))
            {
                profiler.stop();
                final Map<String, Long> sums = byPhase.computeIfAbsent(current, k -> new TreeMap<>());
                for (final String line : profiler.dumpCollapsed(Counter.SAMPLES).split("\n"))
                {
                    final int space = line.lastIndexOf(' ');
                    if (space > 0)
                    {
                        sums.merge(line.substring(0, space), Long.parseLong(line.substring(space + 1)), Long::sum);
                    }
                }
            }
            if (!next.equals("other"))
            {
                profiler.execute(EVENT);
            }
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
        current = next;
    }
}
