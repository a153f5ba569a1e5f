package io.ringwatch.engine.kv;

import io.ringwatch.engine.errors.InvalidRequestException;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KeysTest
{
    @Test
    void prefixEndIncrementsTheLastByte()
    {
        assertArrayEquals(utf8("abd"), Keys.prefixEnd(utf8("abc")));
        assertArrayEquals(bytes(0x80), Keys.prefixEnd(bytes(0x7F)));
        assertArrayEquals(bytes(0x01), Keys.prefixEnd(bytes(0x00)));
        assertArrayEquals(bytes(0xFF), Keys.prefixEnd(bytes(0xFE)));
    }

    @Test
    void prefixEndDropsTrailingFFBytes()
    {
        assertArrayEquals(bytes('b'), Keys.prefixEnd(bytes('a', 0xFF)));
        assertArrayEquals(bytes(0x01, 0x81), Keys.prefixEnd(bytes(0x01, 0x80, 0xFF, 0xFF)));
    }

    @Test
    void prefixEndIsUnboundedForEmptyOrAllFFPrefixes()
    {
        assertNull(Keys.prefixEnd(new byte[0]));
        assertNull(Keys.prefixEnd(bytes(0xFF)));
        assertNull(Keys.prefixEnd(bytes(0xFF, 0xFF, 0xFF)));
    }

    @Test
    void prefixEndLeavesItsArgumentUnchanged()
    {
        final byte[] prefix = bytes('a', 0xFF);
        Keys.prefixEnd(prefix);
        assertArrayEquals(bytes('a', 0xFF), prefix);
    }

    @Test
    void rangesTestBufferKeysInUnsignedOrder()
    {
        final KeyRange range = KeyRange.range(bytes(0x10), bytes(0x90));
        assertTrue(range.contains(new UnsafeBuffer(bytes(0x7F, 0x01)), 2));
        assertTrue(range.contains(new UnsafeBuffer(bytes(0x80)), 1));
        assertFalse(range.contains(new UnsafeBuffer(bytes(0x90)), 1));
        assertFalse(range.contains(new UnsafeBuffer(bytes(0x0F, 0xFF)), 2));
        assertTrue(KeyRange.from(bytes(0xF0)).contains(new UnsafeBuffer(bytes(0xFF, 0xFF)), 2));
        assertTrue(KeyRange.key(bytes(1, 2)).contains(new UnsafeBuffer(bytes(1, 2, 3)), 2));
        assertFalse(KeyRange.key(bytes(1, 2)).contains(new UnsafeBuffer(bytes(1, 2, 3)), 3));
        assertTrue(KeyRange.prefix(bytes(0xFF)).contains(new UnsafeBuffer(bytes(0xFF, 0xFF)), 2), "all-0xFF prefix is unbounded");
    }

    @Test
    void nullStringsAreRefused()
    {
        assertThrows(InvalidRequestException.class, () -> Keys.utf8(null));
    }

    private static byte[] utf8(final String s)
    {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] bytes(final int... values)
    {
        final byte[] bytes = new byte[values.length];
        for (int i = 0; i < values.length; i++)
        {
            bytes[i] = (byte)values[i];
        }
        return bytes;
    }
}
