package io.ringwatch.jmh.secondary;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.direct.DirectWriter;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.kv.RangeResult;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What does finding the pods of one namespace cost with a secondary index, against scanning every
 * key with the same predicate?
 * <p>
 * Both read through the public API and both are consistent at one revision: {@code byIndex} scans the
 * namespace index's prefix and fetches each key from the primary index; {@code fullScan} reads
 * {@code range(all)} and keeps the values whose namespace matches, as client-go does without an
 * indexer. {@code keys} pods spread over 100 namespaces, so one namespace holds 1% of them.
 * Expected: byIndex about 100× cheaper, the ratio growing with the namespace count.
 * <p>
 * Run: {@code java <JVM flags> -jar jmh/target/benchmarks.jar ByIndexBenchmark} (see jmh/README.md).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ByIndexBenchmark
{
    private static final int NAMESPACES = 100;
    private static final String WANTED = "ns-42";

    @Param({"10000"})
    int keys;

    private RingWatch engine;

    /**
     * Opens an engine, writes the pods and adds the namespace index. JMH thread, once per trial.
     */
    @Setup(Level.Trial)
    public void setUp()
    {
        engine = RingWatch.open();
        final DirectWriter writer = engine.newDirectWriter();
        final UnsafeBuffer key = new UnsafeBuffer(new byte[64]);
        final UnsafeBuffer value = new UnsafeBuffer(new byte[128]);
        for (int i = 0; i < keys; i++)
        {
            final int keyLength = key.putStringWithoutLengthAscii(0, "pods/" + i);
            final int valueLength = value.putStringWithoutLengthAscii(0, "ns-" + (i % NAMESPACES) + "|app=web|spec...");
            writer.put(key, 0, keyLength, value, 0, valueLength);
        }
        engine.addIndex("namespace", IndexRoutesBenchmark.NAMESPACE);
        if (byIndex().kvs().size() != fullScan().size())
        {
            throw new IllegalStateException("byIndex and the full scan disagree");
        }
    }

    /**
     * Closes the engine.
     */
    @TearDown(Level.Trial)
    public void tearDown()
    {
        engine.close();
    }

    /**
     * @return the namespace's pods through the secondary index.
     */
    @Benchmark
    public RangeResult byIndex()
    {
        return engine.byIndex("namespace", WANTED);
    }

    /**
     * @return the namespace's pods found by scanning every key.
     */
    @Benchmark
    public List<KeyValue> fullScan()
    {
        final RangeResult all = engine.range(KeyRange.all(), 0);
        final List<KeyValue> matching = new ArrayList<>();
        final byte[] prefix = (WANTED + "|").getBytes(StandardCharsets.UTF_8);
        for (final KeyValue kv : all.kvs())
        {
            if (startsWith(kv.value(), prefix))
            {
                matching.add(kv);
            }
        }
        return matching;
    }

    private static boolean startsWith(final byte[] value, final byte[] prefix)
    {
        if (value.length < prefix.length)
        {
            return false;
        }
        for (int i = 0; i < prefix.length; i++)
        {
            if (value[i] != prefix[i])
            {
                return false;
            }
        }
        return true;
    }
}
