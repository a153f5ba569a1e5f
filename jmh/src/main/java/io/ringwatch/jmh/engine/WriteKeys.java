package io.ringwatch.jmh.engine;

import org.agrona.concurrent.UnsafeBuffer;

import java.nio.charset.StandardCharsets;
import java.util.Random;

/**
 * The write workload shared by every write-path benchmark: a fixed set of {@value #KEY_BYTES}-byte
 * keys visited in a seeded shuffled order (so consecutive puts touch unrelated hash slots, as
 * independent clients would), and one {@value #VALUE_BYTES}-byte value. Each key is held both as a
 * {@code byte[]} (for the convenient and baseline APIs) and as a slice of one Agrona buffer (for the
 * flyweight API), so every contender receives the same bytes.
 * <p>
 * One instance per producer thread: {@link #next()} keeps an unsynchronized cursor. The constructor
 * allocates everything; nothing after it allocates.
 */
final class WriteKeys
{
    /** Length of every key. */
    static final int KEY_BYTES = 16;
    /** Length of the value. */
    static final int VALUE_BYTES = 64;
    /** Size of the key set: a power of two so the cursor wraps with a mask. */
    static final int KEY_COUNT = 64 * 1024;
    private static final long SHUFFLE_SEED = 0x5EEDL;

    private final byte[][] keys = new byte[KEY_COUNT][];
    private final UnsafeBuffer keyBuffer = new UnsafeBuffer(new byte[KEY_COUNT * KEY_BYTES]);
    private final byte[] value = new byte[VALUE_BYTES];
    private final UnsafeBuffer valueBuffer = new UnsafeBuffer(value);
    private int next;

    /**
     * Builds the keys {@code key/000000000000} .. in a shuffled order and a value of printable bytes.
     * Any thread; allocates the key set.
     */
    WriteKeys()
    {
        for (int i = 0; i < KEY_COUNT; i++)
        {
            keys[i] = String.format("key/%012d", i).getBytes(StandardCharsets.US_ASCII);
        }
        final Random random = new Random(SHUFFLE_SEED);
        for (int i = KEY_COUNT - 1; i > 0; i--)
        {
            final int j = random.nextInt(i + 1);
            final byte[] swapped = keys[i];
            keys[i] = keys[j];
            keys[j] = swapped;
        }
        for (int i = 0; i < KEY_COUNT; i++)
        {
            keyBuffer.putBytes(i * KEY_BYTES, keys[i]);
        }
        for (int i = 0; i < VALUE_BYTES; i++)
        {
            value[i] = (byte)('a' + i % 26);
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
     * @return the key at {@code position}; shared, never to be modified.
     */
    byte[] key(final int position)
    {
        return keys[position];
    }

    /**
     * @param position a position from {@link #next()}.
     * @return where the key at {@code position} starts in {@link #keyBuffer()}.
     */
    static int keyOffset(final int position)
    {
        return position * KEY_BYTES;
    }

    /**
     * @return every key, back to back, in cursor order.
     */
    UnsafeBuffer keyBuffer()
    {
        return keyBuffer;
    }

    /**
     * @return the value; shared, never to be modified.
     */
    byte[] value()
    {
        return value;
    }

    /**
     * @return the value as an Agrona buffer from offset 0.
     */
    UnsafeBuffer valueBuffer()
    {
        return valueBuffer;
    }
}
