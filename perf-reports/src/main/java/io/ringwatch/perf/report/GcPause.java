package io.ringwatch.perf.report;

/**
 * One garbage collection the JVM reported during a peer's run (from the collector MXBeans'
 * notifications). Immutable; thread-safe.
 *
 * @param atSeconds when it started, in seconds since the peer's measured phase started (negative
 *                  during warm-up).
 * @param collector the collector's MXBean name, e.g. {@code G1 Young Generation}.
 * @param action    what it was, e.g. {@code end of minor GC}.
 * @param cause     why, e.g. {@code G1 Evacuation Pause}.
 * @param millis    how long it took, milliseconds (a pause for a stop-the-world collector; for a
 *                  concurrent one such as {@code G1 Concurrent GC} the cycle's length).
 */
public record GcPause(double atSeconds, String collector, String action, String cause, double millis)
{
    /**
     * Whether the collection stopped the application threads for its duration.
     *
     * @return false for the concurrent collectors (their name says {@code Concurrent}), true otherwise.
     */
    public boolean stopsTheWorld()
    {
        return !collector.contains("Concurrent");
    }
}
