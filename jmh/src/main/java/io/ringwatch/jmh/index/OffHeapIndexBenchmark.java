package io.ringwatch.jmh.index;

import io.ringwatch.engine.internal.index.IndexEntry;
import io.ringwatch.engine.internal.index.OffHeapIndex;
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

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * What does the writer's index step cost per key, and a reader's point get? One thread updates or gets
 * the {@code indexKeys} keys of a filled {@link OffHeapIndex} in a shuffled order (16-byte keys, 64-byte values,
 * as {@code WriteBenchmark} writes), so nearly every operation misses the caches once the index outgrows
 * them: the hash probe and the node it finds. Baseline in the same run: a {@code HashMap<String, byte[]>}
 * given the same keys in the same order ({@code hashMapPut}, {@code hashMapGet}). Expected: 0 B/op for the
 * index with {@code -prof gc}; the map and the index of the same order of magnitude.
 * <p>
 * Run: {@code java <JVM flags> -jar jmh/target/benchmarks.jar OffHeapIndexBenchmark -prof gc} (see
 * jmh/README.md).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class OffHeapIndexBenchmark
{
    private static final int KEY_BYTES = 16;
    private static final int VALUE_BYTES = 64;

    @Param({"65536", "1048576"})
    int indexKeys;

    private final IndexEntry entry = new IndexEntry();
    private final UnsafeBuffer value = new UnsafeBuffer(ByteBuffer.allocateDirect(VALUE_BYTES));
    private final byte[] mapValue = new byte[VALUE_BYTES];
    private OffHeapIndex index;
    private Map<String, byte[]> map;
    private UnsafeBuffer keyBytes;
    private String[] keyStrings;
    private int[] order;
    private int next;
    private long revision;

    /**
     * Fills the index and the map with every key and draws the shuffled order. JMH thread, once per
     * trial; allocates both stores.
     */
    @Setup(Level.Trial)
    public void fill()
    {
        index = new OffHeapIndex(indexKeys);
        map = new HashMap<>(indexKeys * 2);
        keyBytes = new UnsafeBuffer(ByteBuffer.allocateDirect(indexKeys * KEY_BYTES));
        keyStrings = new String[indexKeys];
        order = new int[indexKeys];
        for (int i = 0; i < indexKeys; i++)
        {
            final String key = String.format("key/%012d", i);
            keyBytes.putStringWithoutLengthAscii(i * KEY_BYTES, key);
            keyStrings[i] = key;
            order[i] = i;
            index.put(keyBytes, i * KEY_BYTES, KEY_BYTES, value, 0, VALUE_BYTES, ++revision, entry);
            map.put(key, mapValue.clone());
        }
        final SplittableRandom random = new SplittableRandom(42);
        for (int i = indexKeys - 1; i > 0; i--)
        {
            final int j = random.nextInt(i + 1);
            final int swap = order[i];
            order[i] = order[j];
            order[j] = swap;
        }
        if (index.size() != indexKeys)
        {
            throw new IllegalStateException("the index holds " + index.size() + " of " + indexKeys + " keys");
        }
    }

    /**
     * Frees the index. JMH thread, once per trial.
     */
    @TearDown(Level.Trial)
    public void close()
    {
        index.close();
    }

    /**
     * Updates the next key in place, as the writer's put does: probe, copy the previous entry out, rewrite.
     *
     * @return the previous entry's version, so the work is not dead.
     */
    @Benchmark
    public long put()
    {
        final int key = nextKey();
        index.put(keyBytes, key * KEY_BYTES, KEY_BYTES, value, 0, VALUE_BYTES, ++revision, entry);
        return entry.version();
    }

    /**
     * Gets the next key, as a reader's point get does.
     *
     * @return the entry's modRevision.
     */
    @Benchmark
    public long get()
    {
        final int key = nextKey();
        index.get(keyBytes, key * KEY_BYTES, KEY_BYTES, entry);
        return entry.modRevision();
    }

    /**
     * Replaces the next key's value in the map.
     *
     * @return the previous value's length.
     */
    @Benchmark
    public int hashMapPut()
    {
        return map.put(keyStrings[nextKey()], mapValue).length;
    }

    /**
     * Gets the next key's value from the map.
     *
     * @return the value's length.
     */
    @Benchmark
    public int hashMapGet()
    {
        return map.get(keyStrings[nextKey()]).length;
    }

    private int nextKey()
    {
        final int key = order[next];
        next = next + 1 == indexKeys ? 0 : next + 1;
        return key;
    }
}
