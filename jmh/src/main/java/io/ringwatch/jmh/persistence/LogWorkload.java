package io.ringwatch.jmh.persistence;

import org.agrona.concurrent.UnsafeBuffer;

import java.nio.charset.StandardCharsets;
import java.util.Random;

/**
 * The write workload of the {@code rawLog} and {@code rawChronicle} baselines of
 * {@code engine.WriteBenchmark}: a fixed set of {@value #KEY_COUNT} {@value #KEY_BYTES}-byte keys visited in a seeded shuffled order, and one {@value #VALUE_BYTES}-byte
 * value. A fixed key set keeps the engine's index, and so the state a log describes, the same size for
 * the whole run; the log itself grows with every write.
 * <p>
 * One instance per writing thread: {@link #next()} keeps an unsynchronized cursor. The constructor
 * allocates everything; nothing after it allocates.
 */
final class LogWorkload
{
    /** Length of every key. */
    static final int KEY_BYTES = 16;
    /** Length of the value. */
    static final int VALUE_BYTES = 64;
    /** Size of the key set: a power of two so the cursor wraps with a mask. */
    static final int KEY_COUNT = 64 * 1024;
    private static final long SHUFFLE_SEED = 0x5EEDL;

    private final UnsafeBuffer keys = new UnsafeBuffer(new byte[KEY_COUNT * KEY_BYTES]);
    private final UnsafeBuffer value = new UnsafeBuffer(new byte[VALUE_BYTES]);
    private int next;

    /**
     * Builds the keys {@code key/000000000000} .. in a shuffled order and a value of printable bytes.
     * Any thread; allocates the key set.
     */
    LogWorkload()
    {
        final int[] order = new int[KEY_COUNT];
        for (int i = 0; i < KEY_COUNT; i++)
        {
            order[i] = i;
        }
        final Random random = new Random(SHUFFLE_SEED);
        for (int i = KEY_COUNT - 1; i > 0; i--)
        {
            final int j = random.nextInt(i + 1);
            final int swapped = order[i];
            order[i] = order[j];
            order[j] = swapped;
        }
        for (int i = 0; i < KEY_COUNT; i++)
        {
            keys.putBytes(i * KEY_BYTES, String.format("key/%012d", order[i]).getBytes(StandardCharsets.US_ASCII));
        }
        for (int i = 0; i < VALUE_BYTES; i++)
        {
            value.putByte(i, (byte)('a' + i % 26));
        }
    }

    /**
     * Advances the cursor. Owner thread only; allocates nothing.
     *
     * @return the position of the next key to write, in [0, {@link #KEY_COUNT}).
     */
    int next()
    {
        final int position = next;
        next = (position + 1) & (KEY_COUNT - 1);
        return position;
    }

    /**
     * @param position a position from {@link #next()}.
     * @return where the key at {@code position} starts in {@link #keys()}.
     */
    static int keyOffset(final int position)
    {
        return position * KEY_BYTES;
    }

    /**
     * @return every key, back to back, in cursor order.
     */
    UnsafeBuffer keys()
    {
        return keys;
    }

    /**
     * @return the value, from offset 0; shared, never to be modified.
     */
    UnsafeBuffer value()
    {
        return value;
    }
}
