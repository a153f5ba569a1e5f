package io.ringwatch.perf.recovery;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * The keys and values the recovery benchmark writes: put number {@code i} (from 0) writes key
 * {@code key/<i % keys, 12 digits>} ({@value #KEY_BYTES} bytes) with a value whose first 8 bytes hold
 * {@code i}, so a recovered engine can be checked, and whose other bytes are fixed letters.
 * <p>
 * One instance per producer thread; both buffers are rewritten in place by each call (the engine
 * copies them before {@code putAsync} returns). Allocates only in the constructor.
 */
final class RecoveryWorkload
{
    /** Length of every key. */
    static final int KEY_BYTES = 16;
    private static final String KEY_PREFIX = "key/";
    private static final int KEY_DIGITS = KEY_BYTES - KEY_PREFIX.length();

    private final int keys;
    private final UnsafeBuffer key = new UnsafeBuffer(new byte[KEY_BYTES]);
    private final UnsafeBuffer value;

    /**
     * @param keys       how many distinct keys the puts cycle through; at least 1.
     * @param valueBytes the value's length; at least 8.
     */
    RecoveryWorkload(final int keys, final int valueBytes)
    {
        this.keys = keys;
        this.value = new UnsafeBuffer(new byte[valueBytes]);
        key.putStringWithoutLengthAscii(0, KEY_PREFIX);
        for (int i = Long.BYTES; i < valueBytes; i++)
        {
            value.putByte(i, (byte)('a' + i % 26));
        }
    }

    /**
     * @param put the put's number, from 0.
     * @return the key buffer, holding that put's key in {@code [0, KEY_BYTES)}.
     */
    UnsafeBuffer keyOf(final long put)
    {
        key.putNaturalPaddedIntAscii(KEY_PREFIX.length(), KEY_DIGITS, (int)(put % keys));
        return key;
    }

    /**
     * @param put the put's number, from 0.
     * @return the value buffer, holding that put's value over its whole capacity.
     */
    UnsafeBuffer valueOf(final long put)
    {
        value.putLong(0, put);
        return value;
    }

    /**
     * Reads the put number back from a stored value.
     *
     * @param storedValue a value this workload wrote.
     * @return the put number in its first 8 bytes.
     */
    static long putOf(final byte[] storedValue)
    {
        return new UnsafeBuffer(storedValue).getLong(0);
    }
}
