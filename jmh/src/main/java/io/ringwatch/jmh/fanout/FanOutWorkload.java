package io.ringwatch.jmh.fanout;

import org.agrona.concurrent.UnsafeBuffer;

import java.nio.charset.StandardCharsets;

/**
 * What every fan-out benchmark writes: {@value #KEY_COUNT} keys of {@value #KEY_BYTES} bytes under the
 * prefix {@code key/}, visited in turn, each with the same {@value #VALUE_BYTES}-byte value, held both as
 * {@code byte[]} (for the baseline) and as slices of Agrona buffers (for the engine's flyweight writer), so
 * every contender writes the same bytes. Watchers that must match nothing watch numbered keys under
 * {@code idle/}, which are never written.
 * <p>
 * One instance per producer thread: {@link #next()} keeps an unsynchronized cursor. The constructor
 * allocates everything; nothing after it does.
 */
final class FanOutWorkload
{
    /** Length of every key, written or watched. */
    static final int KEY_BYTES = 16;
    /** Length of the value. */
    static final int VALUE_BYTES = 64;
    /** Number of written keys: a power of two so the cursor wraps with a mask. */
    static final int KEY_COUNT = 1 << 16;
    /** The prefix of every written key. */
    static final String WRITTEN_PREFIX = "key/";
    /** The prefix of the keys watched by watchers that must match no write. */
    static final String IDLE_PREFIX = "idle/";

    private final byte[][] keys = new byte[KEY_COUNT][];
    private final UnsafeBuffer keyBuffer = new UnsafeBuffer(new byte[KEY_COUNT * KEY_BYTES]);
    private final byte[] value = new byte[VALUE_BYTES];
    private final UnsafeBuffer valueBuffer = new UnsafeBuffer(value);
    private int next;

    /**
     * Builds the keys {@code key/000000000000} .. and a value of printable bytes. Any thread; allocates
     * the key set.
     */
    FanOutWorkload()
    {
        for (int i = 0; i < KEY_COUNT; i++)
        {
            keys[i] = numberedKey(WRITTEN_PREFIX, i);
            keyBuffer.putBytes(i * KEY_BYTES, keys[i]);
        }
        for (int i = 0; i < VALUE_BYTES; i++)
        {
            value[i] = (byte)('a' + i % 26);
        }
    }

    /**
     * Makes the {@value #KEY_BYTES}-byte key {@code prefix} followed by {@code number} in zero-padded
     * decimal. Any thread; allocates the key.
     *
     * @param prefix the key's prefix, shorter than {@value #KEY_BYTES} characters.
     * @param number a number that fits the remaining width.
     * @return the key as US-ASCII bytes.
     */
    static byte[] numberedKey(final String prefix, final int number)
    {
        final String key = String.format("%s%0" + (KEY_BYTES - prefix.length()) + "d", prefix, number);
        return key.getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * @return the prefix every written key starts with, as bytes.
     */
    static byte[] writtenPrefix()
    {
        return WRITTEN_PREFIX.getBytes(StandardCharsets.US_ASCII);
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
