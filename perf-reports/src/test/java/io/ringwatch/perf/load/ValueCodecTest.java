package io.ringwatch.perf.load;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ValueCodecTest
{
    @Test
    void byteArrayAndBufferAgreeOnTheLayout()
    {
        for (final long nanos : new long[] {0, 1, -1, Long.MAX_VALUE, Long.MIN_VALUE, 123_456_789_012_345L})
        {
            final byte[] bytes = new byte[16];
            ValueCodec.writeIntended(bytes, nanos);
            assertEquals(nanos, ValueCodec.intendedNanos(bytes));
            assertEquals(nanos, ValueCodec.intendedNanos(new UnsafeBuffer(bytes)));

            final UnsafeBuffer buffer = new UnsafeBuffer(new byte[8]);
            ValueCodec.writeIntended(buffer, nanos);
            assertEquals(nanos, ValueCodec.intendedNanos(buffer.byteArray()));
        }
    }
}
