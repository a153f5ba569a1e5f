package io.ringwatch.perf.report;

import java.util.List;

/**
 * What the JVM did during one peer's run besides the load: its garbage collections and the
 * process's CPU time (every thread of the JVM, the harness's producers included). Immutable;
 * thread-safe.
 *
 * @param collectors  the garbage collectors' MXBean names, e.g. {@code [G1 Young Generation, ...]}.
 * @param collections every collection reported during the run, in order.
 * @param cpuSeconds  process CPU time used during the run, seconds; negative when the JVM cannot tell.
 * @param wallSeconds the run's wall-clock time, seconds.
 * @param processors  the processors available to the JVM.
 */
public record RunActivity(List<String> collectors, List<GcPause> collections, double cpuSeconds, double wallSeconds,
                          int processors)
{
    /** For results recorded without monitoring (tests, old callers). */
    public static final RunActivity NONE = new RunActivity(List.of(), List.of(), -1, 0, 0);

    /**
     * @return the stop-the-world collections.
     */
    public List<GcPause> pauses()
    {
        return collections.stream().filter(GcPause::stopsTheWorld).toList();
    }

    /**
     * @return the summed length of the stop-the-world collections, milliseconds.
     */
    public double pauseMillis()
    {
        return pauses().stream().mapToDouble(GcPause::millis).sum();
    }

    /**
     * @return the longest stop-the-world collection, milliseconds; 0 when none.
     */
    public double maxPauseMillis()
    {
        return pauses().stream().mapToDouble(GcPause::millis).max().orElse(0);
    }

    /**
     * @return the average number of cores the process kept busy; NaN when unknown.
     */
    public double coresBusy()
    {
        return cpuSeconds < 0 || wallSeconds <= 0 ? Double.NaN : cpuSeconds / wallSeconds;
    }
}
