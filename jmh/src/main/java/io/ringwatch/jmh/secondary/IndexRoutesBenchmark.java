package io.ringwatch.jmh.secondary;

import io.ringwatch.engine.errors.IndexFunctionException;
import io.ringwatch.engine.internal.secondary.IndexRouteVisitor;
import io.ringwatch.engine.internal.secondary.IndexRoutes;
import io.ringwatch.engine.internal.secondary.IndexValues;
import io.ringwatch.engine.secondary.IndexFunction;
import io.ringwatch.ringbuffer.ChangeRecord;
import io.ringwatch.ringbuffer.EventRecord;
import io.ringwatch.ringbuffer.EventType;
import io.ringwatch.ringbuffer.WatchWindow;
import io.ringwatch.ringbuffer.WindowConfig;
import org.agrona.concurrent.SystemNanoClock;
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

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What does routing one event to watch-by-index watchers cost as watchers of OTHER index values
 * pile up?
 * <p>
 * {@link IndexRoutes} (per function, a hash map from index value to watchers: the function runs on
 * the old and the new value once, then one lookup per derived value) against a baseline in the same
 * run, {@code linearScan}, which derives the values once too but then tests every watcher's value, as
 * a naive router does. The event moves a pod from namespace {@code ns-0} to {@code ns-1}; one
 * watcher watches {@code ns-1}; {@code nonMatchingWatchers} others watch other namespaces.
 * Expected: flat for IndexRoutes, linear for the scan; 0 B/op for IndexRoutes with {@code -prof gc}.
 * <p>
 * Run: {@code java <JVM flags> -jar jmh/target/benchmarks.jar IndexRoutesBenchmark} (see jmh/README.md).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class IndexRoutesBenchmark
{
    /** The namespace index of values shaped {@code namespace|rest}; allocates nothing. */
    static final IndexFunction NAMESPACE = (value, offset, length, sink) ->
    {
        int end = offset;
        while (end < offset + length && value.getByte(end) != '|')
        {
            end++;
        }
        if (end > offset)
        {
            sink.accept(value, offset, end - offset);
        }
    };

    @Param({"0", "1000", "100000"})
    int nonMatchingWatchers;

    private final IndexRoutes<Object> routes = new IndexRoutes<>();
    private final List<UnsafeBuffer> scanValues = new ArrayList<>();
    private final List<Object> scanWatchers = new ArrayList<>();
    private final IndexValues olds = new IndexValues();
    private final IndexValues news = new IndexValues();
    private final EventRecord event = new EventRecord();
    private Blackhole blackhole;
    private IndexRouteVisitor<Object> visitor;

    /**
     * Registers one matching and {@code nonMatchingWatchers} other watchers in both routers, reads
     * the routed event from a real window, and checks that each router finds exactly one match.
     * JMH thread, once per trial; allocates the registrations.
     *
     * @param blackhole sink for the matched watchers, so matching cannot be optimised away.
     */
    @Setup(Level.Trial)
    public void setUp(final Blackhole blackhole)
    {
        this.blackhole = blackhole;
        visitor = new IndexRouteVisitor<>()
        {
            @Override
            public void onMatch(final Object watcher, final int mode)
            {
                blackhole.consume(watcher);
            }

            @Override
            public void onFunctionFailed(final Object watcher, final IndexFunctionException failure)
            {
                throw failure;
            }
        };
        register("ns-1".getBytes(StandardCharsets.UTF_8));
        for (int i = 0; i < nonMatchingWatchers; i++)
        {
            register(("ns-" + (i + 2)).getBytes(StandardCharsets.UTF_8));
        }
        final WatchWindow window = new WatchWindow(WindowConfig.defaults(), SystemNanoClock.INSTANCE);
        final UnsafeBuffer key = new UnsafeBuffer("pods/ns-1/web-0".getBytes(StandardCharsets.UTF_8));
        final UnsafeBuffer value = new UnsafeBuffer("ns-1|app=web|spec...".getBytes(StandardCharsets.UTF_8));
        final UnsafeBuffer prev = new UnsafeBuffer("ns-0|app=web|spec...".getBytes(StandardCharsets.UTF_8));
        final ChangeRecord change = new ChangeRecord();
        change.add(EventType.PUT, key, 0, key.capacity(), value, 0, value.capacity(), 1, 2, 2,
            prev, 0, prev.capacity(), 1, 1, 1);
        window.append(2, change);
        window.publish();
        if (window.read(window.publishedSequence(), event) != WatchWindow.READ_OK)
        {
            throw new IllegalStateException("could not read the routed event back");
        }
        if (routes.route(event, visitor) != 1 || linearScanMatches() != 1)
        {
            throw new IllegalStateException("each router must find exactly one watcher");
        }
    }

    /**
     * @return matches found by {@link IndexRoutes}.
     */
    @Benchmark
    public int indexRoutes()
    {
        return routes.route(event, visitor);
    }

    /**
     * @return matches found by testing every watcher's index value.
     */
    @Benchmark
    public int linearScan()
    {
        return linearScanMatches();
    }

    private int linearScanMatches()
    {
        olds.collect("namespace", NAMESPACE, event.prevValue(), 0, event.prevValueLength());
        news.collect("namespace", NAMESPACE, event.value(), 0, event.valueLength());
        int matches = 0;
        for (int i = 0, size = scanValues.size(); i < size; i++)
        {
            final UnsafeBuffer wanted = scanValues.get(i);
            if (olds.contains(wanted, 0, wanted.capacity()) || news.contains(wanted, 0, wanted.capacity()))
            {
                blackhole.consume(scanWatchers.get(i));
                matches++;
            }
        }
        return matches;
    }

    private void register(final byte[] value)
    {
        final Object watcher = new Object();
        routes.add("namespace", NAMESPACE, value, watcher);
        scanValues.add(new UnsafeBuffer(value));
        scanWatchers.add(watcher);
    }
}
