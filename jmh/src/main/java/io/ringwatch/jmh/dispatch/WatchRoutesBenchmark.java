package io.ringwatch.jmh.dispatch;

import io.ringwatch.engine.internal.dispatch.RouteVisitor;
import io.ringwatch.engine.internal.dispatch.WatchRoutes;
import io.ringwatch.engine.kv.Keys;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * What does routing one event key cost as watchers of OTHER keys pile up?
 * <p>
 * Compares {@link WatchRoutes} (hash map for exact keys, hashed prefix table for prefixes, interval treap for
 * other ranges) with its baseline in the same run, {@link LinearScanRoutes}, which tests every watcher as a
 * naive router does; {@code kind = RANGE} routes the namespaces of {@code PREFIX} through the interval treap,
 * the baseline for the prefix table. Exactly one watcher
 * matches the routed key; {@code nonMatchingWatchers} others watch different keys ({@code EXACT_KEY}: other
 * pod keys) or disjoint prefixes ({@code PREFIX}: other namespaces). Expected: flat for WatchRoutes, linear
 * for the scan. The key is read from a direct buffer, as the dispatcher will read it from the watch window.
 * <p>
 * Run: {@code java <JVM flags> -jar jmh/target/benchmarks.jar WatchRoutesBenchmark -prof gc} (see
 * jmh/README.md); {@code -prof gc} shows the allocation per route, which should be 0 B/op for both.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class WatchRoutesBenchmark
{
    /**
     * The kind of watch every watcher in a trial registers.
     */
    public enum WatchKind
    {
        /** Each watcher watches one pod key. */
        EXACT_KEY,
        /** Each watcher watches the prefix of one namespace: routed by WatchRoutes' prefix table. */
        PREFIX,
        /**
         * Each watcher watches its namespace as a range that is not prefix-shaped ({@code [prefix,
         * prefixEnd(prefix) + "\0")}, which adds only the key {@code prefixEnd(prefix)}, never routed here), so
         * WatchRoutes sends it to its interval tree: the same matches as {@code PREFIX} through the path prefixes
         * took before the prefix table, the baseline for it in the same run.
         */
        RANGE
    }

    @Param({"0", "1000", "100000"})
    int nonMatchingWatchers;

    @Param
    WatchKind kind;

    private final WatchRoutes<Watcher> routes = new WatchRoutes<>();
    private final LinearScanRoutes<Watcher> linearScan = new LinearScanRoutes<>();
    private final UnsafeBuffer eventKey = new UnsafeBuffer(ByteBuffer.allocateDirect(128));
    private int eventKeyLength;
    private RouteVisitor<Watcher> visitor;

    /**
     * Registers one matching and {@code nonMatchingWatchers} other watchers in both routers and checks that
     * each finds exactly the one match. JMH thread, once per trial; allocates the registrations.
     *
     * @param blackhole sink for the matched watchers, so matching cannot be optimised away.
     */
    @Setup(Level.Trial)
    public void setUp(final Blackhole blackhole)
    {
        if (nonMatchingWatchers < 0)
        {
            throw new IllegalArgumentException("nonMatchingWatchers must not be negative: " + nonMatchingWatchers);
        }
        visitor = blackhole::consume;

        // Index 0 is the matching watcher; the others differ from it only in the digits, so the scan must
        // compare most of each key before it can reject it, as it would with real Kubernetes keys.
        for (int i = 0; i <= nonMatchingWatchers; i++)
        {
            final Watcher watcher = new Watcher(i);
            if (WatchKind.EXACT_KEY == kind)
            {
                final byte[] key = podKey(i, 0);
                routes.addKey(key, watcher);
                linearScan.addKey(key, watcher);
            }
            else
            {
                final byte[] prefix = namespacePrefix(i);
                final byte[] end = WatchKind.PREFIX == kind ? Keys.prefixEnd(prefix) : nonPrefixEnd(prefix);
                routes.addRange(prefix, end, watcher);
                linearScan.addRange(prefix, end, watcher);
            }
        }

        final byte[] key = WatchKind.EXACT_KEY == kind ? podKey(0, 0) : podKey(0, 42);
        eventKey.putBytes(0, key);
        eventKeyLength = key.length;

        requireOneMatch(routes.route(eventKey, 0, eventKeyLength, visitor), "WatchRoutes");
        requireOneMatch(linearScan.route(eventKey, 0, eventKeyLength, visitor), "LinearScanRoutes");
    }

    /**
     * Routes the key through {@link WatchRoutes}.
     *
     * @return the number of matches.
     */
    @Benchmark
    public int watchRoutes()
    {
        return routes.route(eventKey, 0, eventKeyLength, visitor);
    }

    /**
     * Baseline: routes the key by testing every registered watcher.
     *
     * @return the number of matches.
     */
    @Benchmark
    public int linearScan()
    {
        return linearScan.route(eventKey, 0, eventKeyLength, visitor);
    }

    private static byte[] podKey(final int namespace, final int pod)
    {
        return String.format("/registry/pods/ns-%06d/pod-%06d", namespace, pod).getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] nonPrefixEnd(final byte[] prefix)
    {
        final byte[] end = Keys.prefixEnd(prefix);
        return Arrays.copyOf(end, end.length + 1);
    }

    private static byte[] namespacePrefix(final int namespace)
    {
        return String.format("/registry/pods/ns-%06d/", namespace).getBytes(StandardCharsets.US_ASCII);
    }

    private static void requireOneMatch(final int matches, final String router)
    {
        if (1 != matches)
        {
            throw new IllegalStateException(router + " found " + matches + " matches, expected 1");
        }
    }

    /**
     * A watcher identity, compared by id as a registered watcher would be.
     */
    private static final class Watcher
    {
        private final int id;

        Watcher(final int id)
        {
            this.id = id;
        }

        @Override
        public boolean equals(final Object other)
        {
            return other instanceof Watcher && ((Watcher)other).id == id;
        }

        @Override
        public int hashCode()
        {
            return Integer.hashCode(id);
        }
    }
}
