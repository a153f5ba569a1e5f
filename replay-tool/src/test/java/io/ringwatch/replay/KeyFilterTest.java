package io.ringwatch.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

class KeyFilterTest
{
    @Test
    void keyMatchesOnlyItself()
    {
        final KeyFilter filter = KeyFilter.key("/a");

        assertMatches(filter, "/a", true);
        assertMatches(filter, "/a/", false);
        assertMatches(filter, "/", false);
    }

    @Test
    void prefixMatchesKeysStartingWithIt()
    {
        final KeyFilter filter = KeyFilter.prefix("/a/");

        assertMatches(filter, "/a/", true);
        assertMatches(filter, "/a/b", true);
        assertMatches(filter, "/a", false);
        assertMatches(filter, "/b/a/", false);
    }

    @Test
    void rangeIsHalfOpenInUnsignedByteOrder()
    {
        final KeyFilter filter = KeyFilter.range("b,d");

        assertMatches(filter, "b", true);
        assertMatches(filter, "c\u00ff", true);
        assertMatches(filter, "d", false);
        assertMatches(filter, "a\u00ff", false);
        final byte[] high = {'c', (byte)0xFF};
        assertTrue(filter.matches(high), "0xFF sorts after every ASCII byte, not before");
        assertFalse(KeyFilter.range("a,b").matches(new byte[]{'a' + 1}));
    }

    @Test
    void badSpecificationsAreRefused()
    {
        assertThrows(UsageException.class, () -> KeyFilter.key(""));
        assertThrows(UsageException.class, () -> KeyFilter.prefix(""));
        assertThrows(UsageException.class, () -> KeyFilter.range("abc"));
        assertThrows(UsageException.class, () -> KeyFilter.range(",b"));
        assertThrows(UsageException.class, () -> KeyFilter.range("b,"));
        assertThrows(UsageException.class, () -> KeyFilter.range("b,b"));
        assertEquals("--range end 'a' must sort after its start 'b'",
            assertThrows(UsageException.class, () -> KeyFilter.range("b,a")).getMessage());
    }

    private static void assertMatches(final KeyFilter filter, final String key, final boolean expected)
    {
        final byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
        final byte[] padded = new byte[bytes.length + 6];
        System.arraycopy(bytes, 0, padded, 3, bytes.length);
        assertEquals(expected, filter.matches(bytes), key);
        assertEquals(expected, filter.matches(new UnsafeBuffer(padded), 3, bytes.length), key + " in a buffer");
    }
}
