package io.ringwatch.engine.lease;

/**
 * Where lease operations read the time: the thread that hands a lease command to the writer reads
 * it and the command carries it, so the writer itself reads no clock (its decisions are a function
 * of its input). The default is monotonic; a test gives its own clock in
 * {@link io.ringwatch.engine.config.RingWatchConfig.Builder#leaseClock} and moves it by hand, so
 * that no test sleeps for an expiry. Called from any thread, concurrently; must not allocate.
 */
@FunctionalInterface
public interface LeaseClock
{
    /** The JVM's monotonic clock ({@link System#nanoTime()}) in milliseconds. */
    LeaseClock MONOTONIC = () -> System.nanoTime() / 1_000_000;

    /**
     * @return the current time in milliseconds, from an origin of the clock's choosing; never
     *         going back.
     */
    long nowMillis();
}
