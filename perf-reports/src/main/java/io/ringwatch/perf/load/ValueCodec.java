package io.ringwatch.perf.load;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * Carries a write's intended send time in the first 8 bytes of its value (little-endian), so a
 * watcher can compute write-to-listener latency from the event alone. Stateless; allocates
 * nothing; any thread.
 */
public final class ValueCodec
{
    /** The fewest value bytes a run may use: room for the intended time. */
    public static final int MIN_VALUE_BYTES = Long.BYTES;

    private ValueCodec()
    {
    }

    /**
     * @param value         the value being prepared.
     * @param intendedNanos the write's intended send time.
     */
    public static void writeIntended(final MutableDirectBuffer value, final long intendedNanos)
    {
        value.putLong(0, intendedNanos, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * @param value         the value being prepared, at least 8 bytes.
     * @param intendedNanos the write's intended send time.
     */
    public static void writeIntended(final byte[] value, final long intendedNanos)
    {
        for (int i = 0; i < Long.BYTES; i++)
        {
            value[i] = (byte)(intendedNanos >>> (8 * i));
        }
    }

    /**
     * @param value an event's value buffer, holding the value from offset 0.
     * @return the intended send time it carries.
     */
    public static long intendedNanos(final DirectBuffer value)
    {
        return value.getLong(0, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * @param value an event's value, at least 8 bytes.
     * @return the intended send time it carries.
     */
    public static long intendedNanos(final byte[] value)
    {
        long nanos = 0;
        for (int i = Long.BYTES - 1; i >= 0; i--)
        {
            nanos = (nanos << 8) | (value[i] & 0xFF);
        }
        return nanos;
    }
}
