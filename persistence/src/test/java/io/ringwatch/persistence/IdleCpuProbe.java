package io.ringwatch.persistence;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.watch.EventBatch;
import io.ringwatch.engine.watch.WatchListener;
import io.ringwatch.engine.watch.WatchRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A probe, not a test (skipped unless {@code -Dprobe.idleCpu=true}): what an engine with no writes
 * costs. For each storage (in memory, ASYNC and SYNC persistent) and watcher count
 * ({@code probe.watchers}, "0,1000" by default; one extra watcher asks for progress
 * notifications every second in the runs with watchers), it opens an engine, writes one key, lets
 * it settle for a second, then measures over {@code probe.seconds} (10 by default) each engine
 * thread's CPU and wake-ups (voluntary context switches), from {@code /proc/self/task} (Linux
 * only), by the 15-character native thread name.
 * Run: {@code mvn -B -q -pl persistence -am test -Dtest=IdleCpuProbe -Dprobe.idleCpu=true
 * -Dsurefire.failIfNoSpecifiedTests=false -Djmh.skip=true -Djcstress.skip=true}.
 */
class IdleCpuProbe
{
    private static final String NAME = "idle";

    @TempDir
    Path dir;

    @Test
    void idleEngineCost() throws Exception
    {
        assumeTrue(Boolean.getBoolean("probe.idleCpu"), "a probe: run with -Dprobe.idleCpu=true");
        final long seconds = Long.getLong("probe.seconds", 10);
        final int[] counts = Arrays.stream(System.getProperty("probe.watchers", "0,1000").split(",")).mapToInt(Integer::parseInt).toArray();
        for (final String storage : System.getProperty("probe.storage", "memory,async,sync").split(","))
        {
            for (final int watchers : counts)
            {
                measure(storage, watchers, seconds);
            }
        }
    }

    private void measure(final String storage, final int watchers, final long seconds) throws Exception
    {
        final RingWatchConfig.Builder builder = RingWatchConfig.builder().name(NAME).progressNotifyInterval(java.time.Duration.ofSeconds(1));
        if (!storage.equals("memory"))
        {
            final Path log = Files.createTempDirectory(dir, storage);
            builder.persistence(LogConfig.builder(log)
                .durability(storage.equals("sync") ? LogConfig.Durability.SYNC : LogConfig.Durability.ASYNC).build());
        }
        try (RingWatch engine = RingWatch.open(builder.build()))
        {
            final WatchListener quiet = new WatchListener()
            {
                @Override
                public void onEvents(final EventBatch events)
                {
                }
            };
            for (int i = 0; i < watchers; i++)
            {
                engine.watch(WatchRequest.of(KeyRange.prefix("w/" + i + "/")), quiet);
            }
            if (watchers > 0)
            {
                engine.watch(WatchRequest.of(KeyRange.prefix("p/")).withProgressNotify(), quiet);
            }
            engine.put("k", "v");
            TimeUnit.SECONDS.sleep(1);
            final Map<String, long[]> before = sample();
            final long start = System.nanoTime();
            TimeUnit.SECONDS.sleep(seconds);
            final Map<String, long[]> after = sample();
            final double elapsed = (System.nanoTime() - start) / 1e9;
            final StringBuilder line = new StringBuilder("idle ").append(storage).append(" watchers=").append(watchers).append(':');
            double totalCpu = 0;
            long totalWakes = 0;
            for (final Map.Entry<String, long[]> entry : after.entrySet())
            {
                final long[] was = before.getOrDefault(entry.getKey(), new long[2]);
                final double cpuMsPerS = (entry.getValue()[0] - was[0]) / 1e6 / elapsed;
                final long wakesPerS = Math.round((entry.getValue()[1] - was[1]) / elapsed);
                totalCpu += cpuMsPerS;
                totalWakes += wakesPerS;
                line.append(String.format("%n  %-22s cpu %6.2f ms/s  wake-ups %6d /s", entry.getKey(), cpuMsPerS, wakesPerS));
            }
            line.append(String.format("%n  %-22s cpu %6.2f ms/s  wake-ups %6d /s", "TOTAL", totalCpu, totalWakes));
            System.out.println(line);
        }
    }

    /**
     * Engine thread (native name, the Java name's first 15 characters) to {CPU ns, voluntary
     * context switches}, from {@code /proc/self/task/TID/schedstat} (time on CPU in ns: exact,
     * where ThreadMXBean's CPU time counts in scheduler ticks on some kernels) and
     * {@code .../status}.
     */
    private static Map<String, long[]> sample() throws IOException
    {
        final Map<String, long[]> result = new TreeMap<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task")))
        {
            for (final Path task : tasks)
            {
                try
                {
                    final String comm = Files.readString(task.resolve("comm")).trim();
                    if (!comm.startsWith(NAME + "-"))
                    {
                        continue;
                    }
                    final long[] row = result.computeIfAbsent(comm, n -> new long[2]);
                    row[0] += Long.parseLong(Files.readString(task.resolve("schedstat")).trim().split(" ")[0]);
                    for (final String line : Files.readAllLines(task.resolve("status")))
                    {
                        if (line.startsWith("voluntary_ctxt_switches:"))
                        {
                            row[1] += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                        }
                    }
                }
                catch (final IOException gone)
                {
                    // The thread ended between the listing and the read.
                }
            }
        }
        return result;
    }
}
