package io.ringwatch.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import org.junit.jupiter.api.Test;

class JsonLineTest
{
    @Test
    void stringsAreEscapedAndParseBack()
    {
        final String nasty = "q\"b\\s/\n\r\t\u0001\u001f é 漢 \uD83D\uDE00";

        final String line = new JsonLine().string("text", nasty).number("n", -42).string("none", null).end();

        assertEquals(Map.of("text", nasty, "n", -42L), withoutNulls(FlatJson.parse(line)));
        assertNull(FlatJson.parse(line).get("none"));
        assertEquals(-1, line.indexOf('\n'), "one line");
    }

    @Test
    void bytesAreUtf8WhenValidElseFlaggedBase64()
    {
        final String line = new JsonLine()
            .bytes("ok", "héllo".getBytes(StandardCharsets.UTF_8))
            .bytes("raw", new byte[]{(byte)0xFF, 0x00})
            .bytes("nothing", null)
            .end();

        assertEquals("{\"ok\":\"héllo\",\"raw\":\"/wA=\",\"rawBase64\":true,\"nothing\":null}", line);
    }

    @Test
    void textRenderingQuotesPrintableUtf8AndHexesTheRest()
    {
        assertEquals("\"a \\\"b\\\" \\\\c\"", ByteText.printable("a \"b\" \\c".getBytes(StandardCharsets.UTF_8)));
        assertEquals("\"\"", ByteText.printable(new byte[0]));
        assertEquals("0x610a", ByteText.printable("a\n".getBytes(StandardCharsets.UTF_8)));
        assertEquals("0xc328", ByteText.printable(new byte[]{(byte)0xC3, 0x28}));
        assertNull(ByteText.utf8(new byte[]{(byte)0xED, (byte)0xA0, (byte)0x80}), "an encoded surrogate is not valid UTF-8");
    }

    private static Map<String, Object> withoutNulls(final Map<String, Object> map)
    {
        map.values().removeIf(java.util.Objects::isNull);
        return map;
    }
}
