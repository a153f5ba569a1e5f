package io.ringwatch.engine.internal.index;

import java.nio.charset.StandardCharsets;

import org.agrona.concurrent.UnsafeBuffer;

final class TestBytes
{
    private TestBytes()
    {
    }

    static UnsafeBuffer utf8(final String text)
    {
        return new UnsafeBuffer(text.getBytes(StandardCharsets.US_ASCII));
    }

    static UnsafeBuffer bytes(final int... values)
    {
        final byte[] bytes = new byte[values.length];
        for (int i = 0; i < values.length; i++)
        {
            bytes[i] = (byte)values[i];
        }
        return new UnsafeBuffer(bytes);
    }

    static String text(final byte[] bytes)
    {
        return new String(bytes, StandardCharsets.US_ASCII);
    }
}
