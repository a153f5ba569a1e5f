package io.ringwatch.jmh.isolation;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.internal.index.IndexEntry;
import io.ringwatch.engine.internal.index.OffHeapIndex;
import io.ringwatch.engine.direct.DirectWriter;
import io.ringwatch.jmh.engine.AckWindow;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * Memory per key of an in-memory engine against a plain {@code HashMap<String, byte[]>} holding the
 * same: {@code N} distinct {@value #KEY_BYTES}-byte keys, each with a {@value #VALUE_BYTES}-byte
 * value ({@value #PAYLOAD_BYTES} bytes of payload). For the engine, heap plus direct memory (every
 * off-heap structure of the engine is a direct buffer; {@code RingWatch.stats()} has no byte
 * figures) in use after full GCs, divided by N, beyond two baselines of the same fill:
 * <ul>
 *   <li>the open, empty engine (its write ring, smallest watch window and first index tables);</li>
 *   <li>the same engine once its watch window has grown to its configured upper bound (puts of one
 *       key, deleted again, until the window's capacity is at the bound). The window grows by events
 *       written, not by keys held, and a fill of any size large enough takes it to that bound, so its
 *       bytes are a fixed cost: counted here as part of the baseline, they do not weigh on the
 *       per-key figure at 1,000,000 keys ten times more than at 10,000,000.</li>
 * </ul>
 * For the map, its heap beyond the heap before it was built. All as bytes and as a multiple of the
 * payload. Beside them, an {@link OffHeapIndex} alone, filled with the same keys on this thread: the
 * direct memory it holds. Not a JMH benchmark: a standalone program, run once per size; 10,000,000 keys
 * fit in {@code -Xmx8g}.
 *
 * <pre>
 * java -Xmx8g --add-exports=... -cp jmh/target/benchmarks.jar io.ringwatch.jmh.isolation.KeyFootprint 1000000 10000000
 * </pre>
 */
public final class KeyFootprint
{
    /** Bytes of each key: {@code footprint/} and twelve digits. */
    static final int KEY_BYTES = 22;
    /** Bytes of each value. */
    static final int VALUE_BYTES = 100;
    /** Bytes of payload per key. */
    static final int PAYLOAD_BYTES = KEY_BYTES + VALUE_BYTES;
    private static final byte[] KEY_PREFIX = "footprint/".getBytes(StandardCharsets.US_ASCII);
    /** The key whose puts grow the watch window: not of the fill's form, so never one of its keys. */
    private static final UnsafeBuffer WINDOW_KEY = new UnsafeBuffer("window-growth".getBytes(StandardCharsets.US_ASCII));

    private KeyFootprint()
    {
    }

    /**
     * Measures each size on a fresh engine and a fresh map and prints one line per size.
     *
     * @param args the key counts; default 1000000 and 10000000.
     * @throws InterruptedException if interrupted while waiting for the writer or between GCs.
     */
    public static void main(final String[] args) throws InterruptedException
    {
        final String[] sizes = args.length > 0 ? args : new String[] {"1000000", "10000000"};
        for (final String size : sizes)
        {
            System.out.println(measure(Integer.parseInt(size)));
        }
    }

    /**
     * Fills an engine, then a map, with {@code keys} keys and measures both.
     *
     * @param keys how many keys; at least 1, at most 10^12.
     * @return the figures.
     * @throws IllegalArgumentException if {@code keys} is below 1.
     * @throws IllegalStateException    if the engine refused a put or does not hold every key.
     * @throws InterruptedException     if interrupted while waiting.
     */
    static Figures measure(final int keys) throws InterruptedException
    {
        if (keys < 1)
        {
            throw new IllegalArgumentException("need at least one key: " + keys);
        }
        final long[] engine = measureEngine(keys);
        final long index = measureIndex(keys);
        final long map = measureHashMap(keys);
        return new Figures(keys, engine[0], engine[1], engine[2], index, map);
    }

    /** @return heap and direct bytes beyond the empty engine, and the bytes the window's growth to its bound took. */
    private static long[] measureEngine(final int keys) throws InterruptedException
    {
        final RingWatchConfig config = RingWatchConfig.defaults();
        try (RingWatch engine = RingWatch.open(config))
        {
            final long heapBefore = MemoryUse.heapAfterGc();
            final long directBefore = MemoryUse.directBytes();
            final DirectWriter writer = engine.newDirectWriter();
            final AckWindow acks = new AckWindow();
            final Payload payload = new Payload();
            growWindowToItsBound(engine, config, writer, acks, payload);
            final long windowAtBound = MemoryUse.heapAfterGc() + MemoryUse.directBytes() - heapBefore - directBefore;
            for (int i = 0; i < keys; i++)
            {
                writer.putAsync(payload.key(i), 0, KEY_BYTES, payload.value, 0, VALUE_BYTES, acks);
                acks.sent();
            }
            acks.awaitAll();
            if (acks.failed() != 0 || engine.stats().keys() != keys)
            {
                throw new IllegalStateException(acks.failed() + " puts failed; the engine holds " +
                    engine.stats().keys() + " of " + keys + " keys", acks.firstFailure());
            }
            final long heap = MemoryUse.heapAfterGc() - heapBefore;
            return new long[] {heap, MemoryUse.directBytes() - directBefore, windowAtBound};
        }
    }

    /**
     * Puts one key until the watch window's capacity is at its configured upper bound, then deletes
     * the key, so the engine holds no key and the fill that follows grows the window no further.
     */
    private static void growWindowToItsBound(
        final RingWatch engine,
        final RingWatchConfig config,
        final DirectWriter writer,
        final AckWindow acks,
        final Payload payload) throws InterruptedException
    {
        final int bound = config.windowMaxCapacity();
        for (long puts = 0; engine.stats().windowCapacity() < bound; puts += AckWindow.WINDOW)
        {
            if (puts > 4L * bound)
            {
                throw new IllegalStateException("the watch window stayed at " + engine.stats().windowCapacity() +
                    " events after " + puts + " puts; its bound is " + bound);
            }
            for (int i = 0; i < AckWindow.WINDOW; i++)
            {
                writer.putAsync(WINDOW_KEY, 0, WINDOW_KEY.capacity(), payload.value, 0, VALUE_BYTES, acks);
                acks.sent();
            }
            acks.awaitAll();
        }
        writer.delete(WINDOW_KEY, 0, WINDOW_KEY.capacity());
        if (acks.failed() != 0 || engine.stats().keys() != 0)
        {
            throw new IllegalStateException(acks.failed() + " puts failed growing the window; the engine holds " +
                engine.stats().keys() + " keys", acks.firstFailure());
        }
    }

    private static long measureIndex(final int keys) throws InterruptedException
    {
        MemoryUse.heapAfterGc();
        final long directBefore = MemoryUse.directBytes();
        try (OffHeapIndex index = new OffHeapIndex(RingWatchConfig.defaults().indexInitialCapacity()))
        {
            final IndexEntry previous = new IndexEntry();
            final Payload payload = new Payload();
            for (int i = 0; i < keys; i++)
            {
                index.put(payload.key(i), 0, KEY_BYTES, payload.value, 0, VALUE_BYTES, i + 1L, previous);
            }
            if (index.size() != keys)
            {
                throw new IllegalStateException("the index holds " + index.size() + " of " + keys + " keys");
            }
            MemoryUse.heapAfterGc();
            return MemoryUse.directBytes() - directBefore;
        }
    }

    private static long measureHashMap(final int keys) throws InterruptedException
    {
        final long before = MemoryUse.heapAfterGc();
        final Map<String, byte[]> map = new HashMap<>();
        final byte[] key = new byte[KEY_BYTES];
        for (int i = 0; i < keys; i++)
        {
            writeKey(i, key);
            map.put(new String(key, StandardCharsets.US_ASCII), new byte[VALUE_BYTES]);
        }
        final long heap = MemoryUse.heapAfterGc() - before;
        if (map.size() != keys)
        {
            throw new IllegalStateException("the map holds " + map.size() + " of " + keys + " keys");
        }
        return heap;
    }

    /** Writes {@code footprint/} and {@code i} in twelve digits into {@code key}, allocating nothing. */
    private static void writeKey(final long i, final byte[] key)
    {
        System.arraycopy(KEY_PREFIX, 0, key, 0, KEY_PREFIX.length);
        long rest = i;
        for (int at = KEY_BYTES - 1; at >= KEY_PREFIX.length; at--)
        {
            key[at] = (byte)('0' + rest % 10);
            rest /= 10;
        }
    }

    /**
     * One key buffer and one value buffer, reused for every key of a fill ({@link IndexOpCost} fills
     * the same way); allocates nothing per key. One thread at a time.
     */
    static final class Payload
    {
        private final byte[] key = new byte[KEY_BYTES];
        private final UnsafeBuffer keyBuffer = new UnsafeBuffer(key);
        /** The value every key gets: {@value #VALUE_BYTES} zero bytes. */
        final UnsafeBuffer value = new UnsafeBuffer(new byte[VALUE_BYTES]);

        /**
         * @param i which key, 0 to 10^12 - 1.
         * @return the key buffer, holding key {@code i}.
         */
        UnsafeBuffer key(final long i)
        {
            writeKey(i, key);
            return keyBuffer;
        }
    }

    /**
     * What one size measured.
     *
     * @param keys         the key count.
     * @param engineHeap   heap the engine held beyond its empty state, in bytes.
     * @param engineDirect direct memory the engine held beyond its empty state, in bytes.
     * @param windowBytes  heap and direct memory the watch window's growth to its configured bound
     *                     took before the fill (part of the other two), in bytes.
     * @param indexDirect  direct memory an {@link OffHeapIndex} alone held for the same keys, in bytes.
     * @param hashMapHeap  heap the map held, in bytes.
     */
    record Figures(int keys, long engineHeap, long engineDirect, long windowBytes, long indexDirect, long hashMapHeap)
    {
        /** @return the index's bytes per key. */
        double indexPerKey()
        {
            return indexDirect / (double)keys;
        }

        /** @return the engine's bytes per key, heap and direct together. */
        double enginePerKey()
        {
            return (engineHeap + engineDirect) / (double)keys;
        }

        /** @return the engine's bytes per key beyond an engine whose watch window is at its configured bound. */
        double engineBeyondWindowPerKey()
        {
            return (engineHeap + engineDirect - windowBytes) / (double)keys;
        }

        /** @return the map's bytes per key. */
        double hashMapPerKey()
        {
            return hashMapHeap / (double)keys;
        }

        @Override
        public String toString()
        {
            return String.format("%,d keys of %d B with %d-B values: RingWatch %.1f B per key (heap %.1f + direct %.1f), " +
                "%.2fx the %d-B payload; %.1f B per key, %.2fx, with the watch window at its bound (%.1f MB) counted " +
                "as fixed; its OffHeapIndex alone %.1f B per key, %.2fx; HashMap<String, byte[]> %.1f B per key, %.2fx",
                keys, KEY_BYTES, VALUE_BYTES, enginePerKey(), engineHeap / (double)keys, engineDirect / (double)keys,
                enginePerKey() / PAYLOAD_BYTES, PAYLOAD_BYTES, engineBeyondWindowPerKey(),
                engineBeyondWindowPerKey() / PAYLOAD_BYTES, windowBytes / 1e6, indexPerKey(), indexPerKey() / PAYLOAD_BYTES,
                hashMapPerKey(), hashMapPerKey() / PAYLOAD_BYTES);
        }
    }
}
