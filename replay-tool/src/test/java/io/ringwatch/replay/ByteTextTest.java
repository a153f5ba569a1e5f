package io.ringwatch.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

class ByteTextTest
{
    @Test
    void printableAsciiIsQuotedWithQuotesAndBackslashesEscaped()
    {
        assertEquals("\"/a/1\"", ByteText.printable(bytes("/a/1")));
        assertEquals("\"say \\\"hi\\\" \\\\ there\"", ByteText.printable(bytes("say \"hi\" \\ there")));
        assertEquals("\"\"", ByteText.printable(new byte[0]));
    }

    @Test
    void printableNonAsciiUtf8IsQuotedAndControlOrInvalidBytesAreHex()
    {
        assertEquals("\"grüße\"", ByteText.printable(bytes("grüße")));
        assertEquals("0x610a62", ByteText.printable(bytes("a\nb")));
        assertEquals("0x7f", ByteText.printable(new byte[]{0x7F}));
        assertEquals("0xc328", ByteText.printable(new byte[]{(byte)0xC3, 0x28}));
    }

    @Test
    void utf8DecodesAsciiAndValidUtf8AndRefusesInvalidBytes()
    {
        assertEquals("plain", ByteText.utf8(bytes("plain")));
        assertEquals("ünï", ByteText.utf8(bytes("ünï")));
        assertNull(ByteText.utf8(new byte[]{(byte)0xFF}));
    }

    private static byte[] bytes(final String text)
    {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
