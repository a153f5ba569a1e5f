package io.ringwatch.jmh.engine;

import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;

/**
 * One pre-allocated entry of the {@link SharedRingState} ring: a put's key and value bytes copied in,
 * held as the engine's write-ring entry holds them, and nothing else (no completion: its producer does
 * not wait). Filled by the producer that claimed it, read by the handler after publication; allocates
 * nothing once its buffers have grown to the largest key and value.
 */
final class PayloadSlot
{
    private final ExpandableArrayBuffer key = new ExpandableArrayBuffer(64);
    private final ExpandableArrayBuffer value = new ExpandableArrayBuffer(128);
    private int keyLength;
    private int valueLength;

    /**
     * The bytes the handler reads of each put, the key's and the value's last byte, summed: reading
     * them keeps the copy into the slot from being dead, and summing them lets a tear-down check that
     * every payload arrived. Any thread; allocates nothing.
     *
     * @param key         buffer holding the key.
     * @param keyOffset   where the key starts.
     * @param keyLength   the key's length; at least 1.
     * @param value       buffer holding the value.
     * @param valueOffset where the value starts.
     * @param valueLength the value's length; at least 1.
     * @return the sum of the two bytes.
     */
    static int fold(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength)
    {
        return key.getByte(keyOffset + keyLength - 1) + value.getByte(valueOffset + valueLength - 1);
    }

    /**
     * Copies a put into this slot. Claiming producer thread; allocates nothing once grown.
     *
     * @param keySource   buffer holding the key.
     * @param keyOffset   where the key starts.
     * @param keyLength   the key's length.
     * @param valueSource buffer holding the value.
     * @param valueOffset where the value starts.
     * @param valueLength the value's length.
     */
    void fill(
        final DirectBuffer keySource, final int keyOffset, final int keyLength,
        final DirectBuffer valueSource, final int valueOffset, final int valueLength)
    {
        key.putBytes(0, keySource, keyOffset, keyLength);
        value.putBytes(0, valueSource, valueOffset, valueLength);
        this.keyLength = keyLength;
        this.valueLength = valueLength;
    }

    /**
     * @return {@link #fold} of the put this slot holds. Handler thread, after publication.
     */
    int fold()
    {
        return fold(key, 0, keyLength, value, 0, valueLength);
    }
}
