package io.ringwatch.jcstress;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The one {@link RingWatch} engine that the engine-level stress tests of a jcstress fork share, and the fresh
 * keys that keep their instances apart.
 * <p>
 * Starting an engine takes threads and milliseconds, and jcstress builds thousands of test instances per
 * second, so each instance works on keys no other instance touches instead of on an engine of its own. jcstress
 * runs one test per forked JVM, so the engine serves one test class at a time; it is never closed (its threads
 * are daemons and die with the fork). Its window may grow to 128 Ki events (about 20 MiB of direct memory, well
 * inside a fork's limit), ten times what the instances jcstress keeps in flight at once write, so no watcher
 * is lapped before the test's arbiter drains it.
 * <p>
 * Any thread; {@link #engine()} starts the engine on first use; {@link #freshKey} allocates the key.
 */
final class SharedEngine
{
    private static final RingWatch ENGINE = RingWatch.open(RingWatchConfig.builder()
        .windowCapacity(1 << 12, 1 << 17)
        .maxKeyBytes(32)
        .maxValueBytes(8)
        .windowBytesPerEvent(64)
        .watcherQueueDepth(1 << 10)
        .build());
    private static final AtomicLong KEYS = new AtomicLong();

    private SharedEngine()
    {
    }

    /**
     * The shared engine, started by the first call in this JVM. Any thread.
     *
     * @return the engine.
     */
    static RingWatch engine()
    {
        return ENGINE;
    }

    /**
     * A key no other caller in this JVM gets. Any thread; allocates the key.
     *
     * @param prefix names the test, so keys of different tests never collide either.
     * @return the key bytes.
     */
    static byte[] freshKey(final String prefix)
    {
        return (prefix + '/' + KEYS.incrementAndGet()).getBytes(StandardCharsets.US_ASCII);
    }
}
